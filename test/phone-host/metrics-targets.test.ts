import { issueHostCredential } from '../../admin/auth/host-credentials';
import { METRICS_TARGET_HOSTS_VAR } from '../../admin/hosts/metrics-target';
import { HostMetrics } from '../../phone-host/metrics';
import { PhoneHost } from '../../phone-host/host';
import {
  deviceRequest,
  getJson,
  loginOperator,
  startTestAdmin,
  tempDataDir,
  testLogger,
  type TestAdmin,
} from '../harness';

const METRICS_TOKEN = 'm'.repeat(20) + '0123456789abcdef0123';

/**
 * `GET /api/metrics/targets` (docs/operations.md §3): an operator's session or Prometheus with
 * CMAUTOBUY_METRICS_TOKEN as a Bearer token; a wrong token, a host token or nothing is 401, and
 * the metrics token opens no other route.
 */
describe('metrics targets', () => {
  let admin: TestAdmin;
  let hostId: string;

  beforeAll(async () => {
    admin = await startTestAdmin({ runWorker: false, security: { metricsToken: METRICS_TOKEN } });
    const issued = await issueHostCredential(admin.db, { kind: 'system', name: 'test' }, '指标主机');
    hostId = issued.hostId;
    const beat = await deviceRequest(
      admin,
      { authorization: `Bearer ${issued.hostId}.${issued.token}` },
      'POST',
      '/api/host/heartbeat',
      { body: { metrics_target: '127.0.0.1:9464', present: [] } },
    );
    expect(beat.status).toBe(200);
  });
  afterAll(async () => {
    await admin?.close();
  });

  const expected = () => [
    {
      targets: ['127.0.0.1:9464'],
      labels: { job: 'cmautobuy-phone-host', host_id: hostId, host_name: '指标主机' },
    },
  ];
  const withBearer = (token: string, path = '/api/metrics/targets') =>
    getJson(`${admin.url}${path}`, { headers: { authorization: `Bearer ${token}` } });

  it('an operator session lists every host', async () => {
    const op = await loginOperator(admin);
    expect((await op.get('/api/metrics/targets')).body).toEqual(expected());
  });

  it('the metrics token lists them too, and opens nothing else', async () => {
    expect(await withBearer(METRICS_TOKEN)).toMatchObject({ status: 200, body: expected() });
    expect((await withBearer(METRICS_TOKEN, '/api/devices')).status).toBe(401);
    expect((await withBearer(METRICS_TOKEN, '/api/hosts')).status).toBe(401);
  });

  it('a wrong token, a token one character off, or no credential at all: 401', async () => {
    expect((await withBearer('wrong-token')).status).toBe(401);
    expect((await withBearer(`${METRICS_TOKEN.slice(0, -1)}4`)).status).toBe(401);
    const none = await getJson(`${admin.url}/api/metrics/targets`);
    expect(none).toMatchObject({ status: 401, body: { error: { code: 'UNAUTHENTICATED' } } });
  });
});

/**
 * Where a host may aim Prometheus (admin/hosts/metrics-target.ts, docs/phone-hosts.md "Metrics"):
 * the address it connects from, or a name in CMAUTOBUY_METRICS_TARGET_HOSTS; never a link-local,
 * metadata, unspecified or multicast address. A refused target refuses the heartbeat before
 * anything is written, and is never served to Prometheus.
 */
describe('metrics targets a host may name', () => {
  let admin: TestAdmin;
  let host: { hostId: string; authorization: string };

  beforeAll(async () => {
    admin = await startTestAdmin({ runWorker: false, security: { metricsToken: METRICS_TOKEN } });
    const issued = await issueHostCredential(admin.db, { kind: 'system', name: 'test' }, '边界主机');
    host = { hostId: issued.hostId, authorization: `Bearer ${issued.hostId}.${issued.token}` };
  });
  afterAll(async () => {
    delete process.env[METRICS_TARGET_HOSTS_VAR];
    await admin?.close();
  });

  const beat = (body: Record<string, unknown>) =>
    deviceRequest(admin, host, 'POST', '/api/host/heartbeat', { body: { present: [], ...body } });
  const stored = () =>
    admin.db
      .selectFrom('phone_hosts')
      .select(['metrics_target', 'last_seen_at'])
      .where('host_id', '=', host.hostId)
      .executeTakeFirstOrThrow();
  const served = async () =>
    (
      (await getJson(`${admin.url}/api/metrics/targets`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } }))
        .body as Array<{ targets: string[] }>
    ).flatMap((g) => g.targets);

  it('the address the host connects from is taken; a metadata, link-local, unspecified or multicast one is refused and never served', async () => {
    expect((await beat({ metrics_target: '127.0.0.1:9464' })).status).toBe(200);
    const before = await stored();
    expect(before.metrics_target).toBe('127.0.0.1:9464');
    process.env[METRICS_TARGET_HOSTS_VAR] = '169.254.169.254,[fe80::1],0.0.0.0,224.0.0.1,metadata.internal';
    for (const target of [
      '169.254.169.254:80', // cloud metadata, even when listed
      '[::ffff:169.254.169.254]:80',
      '[fe80::1]:9464',
      '0.0.0.0:9464',
      '[::]:9464',
      '224.0.0.1:9464',
      '[ff02::1]:9464',
      '[fd00:ec2::254]:80',
    ]) {
      const res = await beat({ metrics_target: target });
      expect({ target, status: res.status, code: (res.body as { error?: { code: string } }).error?.code }).toEqual({
        target,
        status: 400,
        code: 'METRICS_TARGET_REFUSED',
      });
    }
    // nothing written: neither the target nor the time of the beat
    expect(await stored()).toEqual(before);
    expect(await served()).toEqual(['127.0.0.1:9464']);
  });

  it('another address or an internal name is refused unless CMAUTOBUY_METRICS_TARGET_HOSTS lists it', async () => {
    delete process.env[METRICS_TARGET_HOSTS_VAR];
    for (const target of ['10.0.0.7:9464', 'prometheus-internal:9090', 'localhost:9464', 'x:99999', 'no-port'])
      expect((await beat({ metrics_target: target })).body).toMatchObject({
        error: { code: 'METRICS_TARGET_REFUSED' },
      });
    process.env[METRICS_TARGET_HOSTS_VAR] = 'host-a.lan, 10.0.0.7';
    expect((await beat({ metrics_target: 'HOST-A.lan:9464' })).status).toBe(200);
    expect(await served()).toEqual(['host-a.lan:9464']);
    expect((await beat({ metrics_target: '10.0.0.7:9464' })).status).toBe(200);
    expect(await served()).toEqual(['10.0.0.7:9464']);
    expect((await beat({ metrics_target: '10.0.0.8:9464' })).status).toBe(400);
  });

  it('metrics_port alone: the port at the address the host connects from', async () => {
    expect((await beat({ metrics_target: null, metrics_port: 9470 })).status).toBe(200);
    expect(await served()).toEqual(['127.0.0.1:9470']);
    expect((await beat({ metrics_target: null })).status).toBe(200);
    expect(await served()).toEqual([]);
  });

  it('a phone host whose target is refused falls back to its port at the address it connects from, and its round goes on', async () => {
    delete process.env[METRICS_TARGET_HOSTS_VAR];
    const issued = await issueHostCredential(admin.db, { kind: 'system', name: 'test' }, '回退主机');
    const phoneHost = new PhoneHost({
      adminUrl: admin.url,
      hostId: issued.hostId,
      token: issued.token,
      // never started: sync() alone is the round with the admin, and no phone is on ADB
      adb: { host: '127.0.0.1', port: 9 },
      dataDir: tempDataDir('metrics-fallback'),
      log: testLogger('phone-host'),
      metrics: new HostMetrics(),
      metricsTarget: '169.254.169.254:9555',
      syncMs: 60_000,
      healthMs: 60_000,
    });
    await phoneHost.sync();
    const row = await admin.db
      .selectFrom('phone_hosts')
      .select(['metrics_target', 'last_seen_at'])
      .where('host_id', '=', issued.hostId)
      .executeTakeFirstOrThrow();
    expect(row.metrics_target).toBe('127.0.0.1:9555');
    expect(row.last_seen_at).not.toBeNull();
  });

  it('a metadata target stored before these checks existed is not served', async () => {
    await admin.db
      .updateTable('phone_hosts')
      .set({ metrics_target: '169.254.169.254:80' })
      .where('host_id', '=', host.hostId)
      .execute();
    expect(await served()).not.toContain('169.254.169.254:80');
  });
});
