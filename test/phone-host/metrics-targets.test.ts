import { issueHostCredential } from '../../admin/auth/host-credentials';
import { deviceRequest, getJson, loginOperator, startTestAdmin, type TestAdmin } from '../harness';

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
