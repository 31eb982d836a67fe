import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { issueHostCredential } from '../../admin/auth/host-credentials';
import type { DeviceView } from '../../domain/devices';
import { PhoneHost } from '../../phone-host/host';
import { HostMetrics } from '../../phone-host/metrics';
import { startPhoneSim, type PhoneSim } from '../../sim/phone';
import {
  deviceRequest,
  loginOperator,
  startTestAdmin,
  tempDataDir,
  testLogger,
  type OperatorClient,
  type TestAdmin,
} from '../harness';
import { releaseAppVersionInTestDb } from '../purchase/setup';
import { operatorSteps, until } from './operator-steps';

jest.setTimeout(600_000);
/** polls of 100 ms: a phone host's worker processes take their time to come and go */
const TRIES = 2_400;

/**
 * One phone host (phone-host/host.ts) against the real admin, the simulator and real device
 * worker processes (docs/phone-hosts.md): phones plugged in while it runs wait for approval,
 * approved phones buy, phones that leave go 离线 and come back without a new approval, a killed
 * worker is restarted, bad health stops claims, and a host token opens nothing but its channel.
 */
describe('phone host', () => {
  let admin: TestAdmin;
  let op: OperatorClient;
  let sim: PhoneSim;
  let host: PhoneHost;
  let hostAuth: { authorization: string };
  let hostId: string;
  const metrics = new HostMetrics();
  let hostDataDir: string;

  /** Every 64-hex run in every file under the host's data dir that is a live device token. */
  function tokensOnDisk(hashes: Buffer[]): string[] {
    const found: string[] = [];
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else
          for (const m of fs
            .readFileSync(p)
            .toString('latin1')
            .matchAll(/[0-9a-f]{64}/g)) {
            const h = crypto.createHash('sha256').update(Buffer.from(m[0], 'hex')).digest();
            if (hashes.some((x) => x.equals(h))) found.push(`${p}: ${m[0].slice(0, 8)}…`);
          }
      }
    };
    walk(hostDataDir);
    return found;
  }

  const devices = async () => (await op.get('/api/devices')).body as DeviceView[];
  const bySerial = async (serial: string) => (await devices()).find((d) => d.serial === serial);
  const viewOf = (serial: string, check: (d: DeviceView) => boolean, what: string) =>
    until(
      () => bySerial(serial),
      (d) => d !== undefined && check(d),
      `${serial} ${what}`,
      TRIES,
    ) as Promise<DeviceView>;
  const { task, waitFor, dryRun } = operatorSteps(
    () => op,
    () => admin.db,
    TRIES,
  );
  const workerPid = (serial: string) => host.snapshot().find((p) => p.serial === serial)?.worker_pid ?? null;
  async function approve(serial: string): Promise<DeviceView> {
    const pending = await viewOf(serial, (d) => d.state === 'pending', 'pending');
    expect((await op.post(`/api/devices/${pending.device_id}/approve`)).status).toBe(200);
    return viewOf(serial, (d) => d.state === 'active' && d.online, 'approved and online');
  }

  beforeAll(async () => {
    admin = await startTestAdmin();
    await releaseAppVersionInTestDb(admin);
    op = await loginOperator(admin);
    sim = await startPhoneSim({ adbPort: 0, controlPort: 0, phones: ['host-a'] });
    const issued = await issueHostCredential(admin.db, { kind: 'system', name: 'test' }, '测试主机');
    hostId = issued.hostId;
    hostAuth = { authorization: `Bearer ${issued.hostId}.${issued.token}` };
    const metricsTarget = await metrics.listen('127.0.0.1', 0);
    host = new PhoneHost({
      adminUrl: admin.url,
      hostId: issued.hostId,
      token: issued.token,
      adb: { host: '127.0.0.1', port: sim.adbPort },
      dataDir: (hostDataDir = tempDataDir('phone-host')),
      log: testLogger('phone-host'),
      metrics,
      metricsTarget,
      syncMs: 500,
      healthMs: 500,
      workerEnv: {
        CMAUTOBUY_TEMPORAL_ADDRESS: process.env.CMAUTOBUY_TEST_TEMPORAL_ADDRESS,
        CMAUTOBUY_TEMPORAL_NAMESPACE: admin.namespace,
        CMAUTOBUY_LOG_LEVEL: 'warn',
        // no payload keys: the host gets them over its admin channel
      },
    });
    await host.start();
  });
  afterAll(async () => {
    await host?.stop();
    await metrics.close();
    await sim?.close();
    await admin?.close();
  });

  it('a phone waits as 待批准 with its host, serial, model and PDD version; a host token can neither approve it nor reach operator routes', async () => {
    const a = await viewOf('host-a', (d) => d.state === 'pending', 'pending');
    expect(a).toMatchObject({ host_id: hostId, serial: 'host-a', app_version: '8.17.0', online: false });
    expect(a.model).toBeTruthy();
    expect(workerPid('host-a')).toBeNull();
    // the host channel refuses a token for a phone nobody approved, and the host cannot approve
    const token = await deviceRequest(admin, hostAuth, 'POST', `/api/host/phones/${a.device_id}/token`);
    expect(token.status).toBe(409);
    expect((await deviceRequest(admin, hostAuth, 'POST', `/api/devices/${a.device_id}/approve`)).status).toBe(401);
    expect((await deviceRequest(admin, hostAuth, 'GET', '/api/devices')).status).toBe(401);
    expect((await deviceRequest(admin, hostAuth, 'GET', '/api/metrics/targets')).status).toBe(401);
    // a session cannot use the host channel either
    expect((await op.post('/api/host/heartbeat', {})).status).toBe(401);
    expect((await bySerial('host-a'))?.state).toBe('pending');
  });

  it('approved (audited), its worker runs and completes a dry run; the targets endpoint lists the host', async () => {
    const a = await approve('host-a');
    const rows = await admin.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'device.approve')
      .where('target_id', '=', a.device_id)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ actor_kind: 'operator' });
    const t = await dryRun();
    expect(await waitFor(t, ['DRY_RUN_PASSED', 'NEEDS_MANUAL', 'FAILED'])).toMatchObject({
      status: 'DRY_RUN_PASSED',
      device_id: a.device_id,
    });
    const targets = (await op.get('/api/metrics/targets')).body as Array<{ targets: string[]; labels: object }>;
    expect(targets).toEqual([
      { targets: [expect.stringMatching(/^127\.0\.0\.1:\d+$/)], labels: expect.objectContaining({ host_id: hostId }) },
    ]);
    const text = await (await fetch(`http://${targets[0]!.targets[0]}/metrics`)).text();
    expect(text).toContain(`cmautobuy_host_phone_present{device="${a.device_id}"} 1`);
    // the device token lives in the host's memory and the worker's environment only
    const live = await admin.db.selectFrom('device_credentials').select('token_sha256').execute();
    expect(fs.readdirSync(hostDataDir).length).toBeGreaterThan(0);
    expect(tokensOnDisk(live.map((r) => r.token_sha256))).toEqual([]);
  });

  it('a phone plugged in later waits for approval; pulled out it is 离线 and the queued task goes to the other phone; plugged back it resumes', async () => {
    sim.registry.plugIn('host-b');
    const b = await approve('host-b');
    const a = (await bySerial('host-a'))!;
    sim.registry.remove('host-a');
    await viewOf('host-a', (d) => !d.online, '离线');
    await until(
      async () => workerPid('host-a'),
      (pid) => pid === null,
      'worker of host-a stopped',
      TRIES,
    );
    const t = await dryRun();
    expect(await waitFor(t, ['DRY_RUN_PASSED', 'NEEDS_MANUAL', 'FAILED'])).toMatchObject({
      status: 'DRY_RUN_PASSED',
      device_id: b.device_id,
    });
    sim.registry.plugIn('host-a');
    const back = await viewOf('host-a', (d) => d.online, 'online again');
    expect(back).toMatchObject({ device_id: a.device_id, state: 'active' });
  });

  it('low battery or a locked screen stops claims with the reason on 设备; the other phone buys; it claims again once cleared', async () => {
    const a = (await bySerial('host-a'))!;
    const b = (await bySerial('host-b'))!;
    sim.phone('host-b').setHealth({ battery_level: 9, charging: false });
    await viewOf('host-b', (d) => d.claim_block?.reason_code === 'LOW_BATTERY', 'LOW_BATTERY');
    expect((await bySerial('host-b'))?.health).toMatchObject({ battery_level: 9, charging: false, screen: 'on' });
    sim.phone('host-a').setHealth({ screen: 'locked' });
    await viewOf('host-a', (d) => d.claim_block?.reason_code === 'SCREEN_LOCKED', 'SCREEN_LOCKED');
    // both refuse: the task waits (the worker checks the admin every 5 s)
    const t = await dryRun();
    await new Promise((r) => setTimeout(r, 12_000));
    expect((await task(t)).status).toBe('PENDING');
    sim.phone('host-a').setHealth({ screen: 'on' });
    expect(await waitFor(t, ['DRY_RUN_PASSED', 'NEEDS_MANUAL', 'FAILED'])).toMatchObject({
      status: 'DRY_RUN_PASSED',
      device_id: a.device_id,
    });
    sim.phone('host-b').setHealth({ battery_level: 80, charging: true });
    await viewOf('host-b', (d) => d.claim_block === null, 'cleared');
    expect(b.state).toBe('active');
  });

  it('a worker SIGKILLed is restarted and the other phone keeps buying', async () => {
    const before = workerPid('host-a')!;
    const b = (await bySerial('host-b'))!;
    process.kill(before, 'SIGKILL');
    sim.phone('host-a').setHealth({ screen: 'locked' }); // the next task is B's
    await viewOf('host-a', (d) => d.claim_block?.reason_code === 'SCREEN_LOCKED', 'locked');
    const t = await dryRun();
    expect(await waitFor(t, ['DRY_RUN_PASSED', 'NEEDS_MANUAL', 'FAILED'])).toMatchObject({
      status: 'DRY_RUN_PASSED',
      device_id: b.device_id,
    });
    const after = await until(
      async () => workerPid('host-a'),
      (pid) => pid !== null && pid !== before,
      'a new worker for host-a',
      TRIES,
    );
    expect(after).not.toBe(before);
    expect(await metrics.registry.getSingleMetricAsString('cmautobuy_host_worker_restarts_total')).toMatch(/ 1$/m);
    sim.phone('host-a').setHealth({ screen: 'on' });
  });

  it('a revoked host: its phones are revoked and take no claim', async () => {
    const ids = (await devices()).filter((d) => d.host_id === hostId).map((d) => d.device_id);
    expect(ids).toHaveLength(2);
    expect((await op.post(`/api/hosts/${hostId}/revoke`)).status).toBe(200);
    const statuses = await admin.db
      .selectFrom('device_credentials')
      .select('status')
      .where('device_id', 'in', ids)
      .execute();
    expect(statuses.map((s) => s.status)).toEqual(['REVOKED', 'REVOKED']);
    expect((await deviceRequest(admin, hostAuth, 'POST', '/api/host/heartbeat', { body: {} })).status).toBe(401);
    const t = await dryRun();
    await new Promise((r) => setTimeout(r, 12_000));
    expect((await task(t)).status).toBe('PENDING');
    expect((await devices()).filter((d) => d.host_id === hostId)).toEqual([]);
  });
});
