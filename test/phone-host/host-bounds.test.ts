import { issueHostCredential } from '../../admin/auth/host-credentials';
import type { DeviceView } from '../../domain/devices';
import {
  deviceRequest,
  issueTestDevice,
  loginOperator,
  startTestAdmin,
  type HttpResult,
  type OperatorClient,
  type TestAdmin,
} from '../harness';

jest.setTimeout(300_000);

/** The presence cache of 设备 (admin/auth/device-registry.ts PRESENCE_CACHE_MS) has certainly run out after this. */
const PAST_PRESENCE_CACHE_MS = 5_500;

const phone = (i: number) => ({
  serial: `R58M${String(i).padStart(6, '0')}`,
  model: 'Pixel 7',
  android_version: '14',
  app_version: '7.28.0',
});

/**
 * What one phone-host token can make the admin hold and do (docs/phone-hosts.md, docs/security.md
 * "Phone hosts and devices"): its pending phones are capped by a setting, and the phones it
 * reports by itself cost 设备 no Temporal call however many there are.
 */
describe('a host is bounded', () => {
  let admin: TestAdmin;
  let op: OperatorClient;

  beforeAll(async () => {
    admin = await startTestAdmin({ runWorker: false });
    op = await loginOperator(admin);
  });
  afterAll(async () => {
    await admin?.close();
  });

  async function newHost(name: string): Promise<{ hostId: string; authorization: string }> {
    const issued = await issueHostCredential(admin.db, { kind: 'system', name: 'test' }, name);
    return { hostId: issued.hostId, authorization: `Bearer ${issued.hostId}.${issued.token}` };
  }
  const report = (host: { authorization: string }, body: unknown) =>
    deviceRequest(admin, host, 'POST', '/api/host/phones', { body });
  const count = async (table: 'device_credentials' | 'host_phones' | 'app_versions') =>
    Number(
      (
        await admin.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const seenAudits = async () =>
    (await admin.db.selectFrom('audit_log').select('id').where('action', '=', 'host.phone_seen').execute()).length;

  it('500 phones from one host token: exactly the setting (32) wait as 待批准, the rest are 429 HOST_PENDING_LIMIT and write nothing', async () => {
    const host = await newHost('洪水主机');
    const before = {
      creds: await count('device_credentials'),
      phones: await count('host_phones'),
      audits: await seenAudits(),
      versions: await count('app_versions'),
    };
    const started = Date.now();
    const answers: HttpResult[] = [];
    // ten at a time: concurrent reports race for the same last free place
    for (let i = 0; i < 500; i += 10)
      answers.push(...(await Promise.all(Array.from({ length: 10 }, (_, k) => report(host, phone(i + k))))));
    const elapsedMs = Date.now() - started;

    const accepted = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 429);
    expect(accepted).toHaveLength(32);
    expect(refused).toHaveLength(468);
    for (const r of refused)
      expect(r.body).toMatchObject({ error: { code: 'HOST_PENDING_LIMIT', details: { limit: 32 } } });
    expect(await count('device_credentials')).toBe(before.creds + 32);
    expect(await count('host_phones')).toBe(before.phones + 32);
    expect(await seenAudits()).toBe(before.audits + 32);
    // one version row for all of them (noteAppVersionSeen), none for a refused phone
    expect(await count('app_versions')).toBe(before.versions + 1);

    // a phone it already reported is still answered at the cap (the host's every round reports it)
    expect((await report(host, phone(0))).status).toBe(200);
    // an operator's 拒绝 frees a place, for one more phone and no more
    const waiting = accepted.map((a) => (a.body as { device_id: string }).device_id);
    expect((await op.post(`/api/devices/${waiting[0]}/reject`)).status).toBe(200);
    expect((await report(host, phone(1000))).status).toBe(200);
    expect((await report(host, phone(1001))).status).toBe(429);
    // another host has places of its own
    expect((await report(await newHost('邻居主机'), phone(0))).status).toBe(200);
    console.log(`500 reports from one host: ${elapsedMs} ms`);
  });

  it('the cap is a setting on 设置 (1–256 台)', async () => {
    expect((await op.put('/api/settings', { 'hosts.max_pending_phones': 0 })).status).toBe(400);
    expect((await op.put('/api/settings', { 'hosts.max_pending_phones': 257 })).status).toBe(400);
    expect((await op.put('/api/settings', { 'hosts.max_pending_phones': 2 })).status).toBe(200);
    const host = await newHost('小主机');
    expect((await report(host, phone(1))).status).toBe(200);
    expect((await report(host, phone(2))).status).toBe(200);
    expect((await report(host, phone(3))).body).toMatchObject({
      error: { code: 'HOST_PENDING_LIMIT', details: { limit: 2 } },
    });
  });

  it('设备 makes the same Temporal calls with 5 pending phones or 500', async () => {
    // every call the admin's Temporal client makes, whatever it is
    const client = await admin.temporal.client();
    // (the connection wraps each RPC of the service in an own property that adds the namespace header)
    const service = client.connection.workflowService as unknown as Record<string, unknown>;
    let calls = 0;
    for (const name of Object.keys(service)) {
      const fn = service[name];
      if (name === 'constructor' || typeof fn !== 'function') continue;
      jest.spyOn(service as Record<string, (...a: unknown[]) => unknown>, name).mockImplementation(function (
        this: unknown,
        ...args: unknown[]
      ) {
        calls++;
        return (fn as (...a: unknown[]) => unknown).apply(service, args);
      });
    }
    try {
      // one phone with a credential of its own: its worker's presence is asked of Temporal
      await issueTestDevice(admin, '手工手机');
      const loadCosts = async (): Promise<{ calls: number; ms: number; pending: number }> => {
        await new Promise((r) => setTimeout(r, PAST_PRESENCE_CACHE_MS));
        calls = 0;
        const started = Date.now();
        const res = await op.get('/api/devices');
        const ms = Date.now() - started;
        expect(res.status).toBe(200);
        const devices = res.body as DeviceView[];
        return { calls, ms, pending: devices.filter((d) => d.state === 'pending').length };
      };

      expect((await op.put('/api/settings', { 'hosts.max_pending_phones': 256 })).status).toBe(200);
      const hosts = [await newHost('五台'), await newHost('二百五十台甲'), await newHost('二百五十台乙')];
      for (let i = 0; i < 5; i++) expect((await report(hosts[0]!, phone(5000 + i))).status).toBe(200);
      const few = await loadCosts();

      for (const [h, base] of [
        [hosts[1]!, 6000],
        [hosts[2]!, 7000],
      ] as const)
        for (let i = 0; i < 250; i += 10)
          for (const r of await Promise.all(Array.from({ length: 10 }, (_, k) => report(h, phone(base + i + k)))))
            expect(r.status).toBe(200);
      const many = await loadCosts();

      expect(many.pending - few.pending).toBe(500);
      expect(few.calls).toBeGreaterThan(0); // the manual phone was asked about: the spy sees the calls
      expect(many.calls).toBe(few.calls);
      console.log(
        `设备 with ${few.pending} pending: ${few.calls} Temporal calls, ${few.ms} ms; with ${many.pending}: ${many.calls}, ${many.ms} ms`,
      );
    } finally {
      jest.restoreAllMocks();
    }
  });
});
