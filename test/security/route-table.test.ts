import { issueHostCredential } from '../../admin/auth/host-credentials';
import { allRouters } from '../../admin/http/routes';
import {
  deviceRequest,
  getJson,
  issueTestDevice,
  loginOperator,
  startTestAdmin,
  testLogger,
  type OperatorClient,
  type TestAdmin,
  type TestDevice,
} from '../harness';

/**
 * Enumerates every route of every router in `allRouters`, so a route added later is checked
 * without anyone remembering to add it here. The only routes that may be reached without an
 * identity are listed in PUBLIC.
 */
const PUBLIC = new Set(['GET /healthz', 'GET /metrics', 'POST /api/session']);
/**
 * The Temporal codec server speaks a protocol without a CSRF token (admin/auth/zones.ts): a
 * session, no token, nothing changed; test/security/payload-encryption.test.ts covers them.
 */
const NO_CSRF = new Set(['POST /api/codec/decode', 'POST /api/codec/encode']);
const SAMPLE_PARAM = '00000000-0000-4000-8000-000000000000';

interface Route {
  method: string;
  path: string;
  url: string;
}

describe('route table: every /api route needs the right identity', () => {
  let admin: TestAdmin;
  let operator: OperatorClient;
  let device: TestDevice;
  let routes: Route[];

  beforeAll(async () => {
    admin = await startTestAdmin({ runWorker: false });
    operator = await loginOperator(admin);
    device = await issueTestDevice(admin);
    const routers = allRouters({
      db: admin.db,
      reads: admin.db,
      temporal: admin.temporal,
      log: testLogger(),
      uiDist: '/nonexistent',
      security: admin.security,
      syb: admin.syb,
      live: admin.live,
    });
    routes = routers.flatMap((router) =>
      router.stack.flatMap((layer) =>
        layer.methods
          .filter((m) => m !== 'HEAD')
          .map((method) => {
            const path = String(layer.path);
            return { method, path, url: path.replace(/:[A-Za-z_]\w*/g, SAMPLE_PARAM) };
          }),
      ),
    );
  });
  afterAll(async () => {
    await admin?.close();
  });

  const isMutating = (m: string) => !['GET', 'HEAD', 'OPTIONS'].includes(m);
  // device and phone-host routes take a Bearer token of their own kind, never a session
  const isDeviceRoute = (p: string) => p.startsWith('/api/device/') || p.startsWith('/api/host/');
  const guarded = () => routes.filter((r) => !PUBLIC.has(`${r.method} ${r.path}`));

  it('finds the routes it is supposed to guard, and nothing outside /api except the public ones', () => {
    const names = routes.map((r) => `${r.method} ${r.path}`);
    for (const expected of [
      'POST /api/session',
      'DELETE /api/session',
      'GET /api/me',
      'GET /api/devices',
      'POST /api/devices',
      'PATCH /api/devices/:deviceId',
      'POST /api/devices/:deviceId/revoke',
      'GET /api/evidence/:id',
      'POST /api/device/register',
      'POST /api/device/evidence',
      'GET /api/syb/sync',
      'POST /api/syb/sync',
      'GET /api/syb/orders',
      'PUT /api/syb/orders/:sybId/sku',
      'GET /api/syb/settings',
      'PUT /api/syb/settings',
      'POST /api/tasks/from-orders',
      'GET /api/settings',
      'PUT /api/settings',
    ]) {
      expect(names).toContain(expected);
    }
    const outside = routes.filter((r) => !r.path.startsWith('/api/') && !PUBLIC.has(`${r.method} ${r.path}`));
    expect(outside).toEqual([]);
  });

  it('serves GET /metrics with no identity at all, and takes no write there without a session', async () => {
    const res = await fetch(`${admin.url}/metrics`);
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/^# HELP cmautobuy_/m);
    const write = await getJson(`${admin.url}/metrics`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(write.status).toBe(401);
  });

  it('answers 401 to every guarded route without credentials', async () => {
    for (const r of guarded()) {
      const res = await getJson(`${admin.url}${r.url}`, {
        method: r.method,
        headers: { 'content-type': 'application/json' },
        body: isMutating(r.method) ? '{}' : undefined,
      });
      expect({ route: `${r.method} ${r.path}`, status: res.status }).toEqual({
        route: `${r.method} ${r.path}`,
        status: 401,
      });
    }
  });

  it('answers 403 to every mutating operator route with a session but no X-CSRF-Token, and with a wrong one', async () => {
    const csrfGuarded = guarded().filter((x) => !NO_CSRF.has(`${x.method} ${x.path}`));
    for (const r of csrfGuarded.filter((x) => isMutating(x.method) && !isDeviceRoute(x.path))) {
      for (const headers of [{}, { 'x-csrf-token': 'f'.repeat(64) }] as Array<Record<string, string>>) {
        const res = await operator.request(r.method, r.url, {}, { csrf: false, headers });
        expect({ route: `${r.method} ${r.path}`, status: res.status }).toEqual({
          route: `${r.method} ${r.path}`,
          status: 403,
        });
        expect(res.body).toMatchObject({ error: { code: 'CSRF_TOKEN_INVALID' } });
      }
    }
  });

  it('refuses a device token on every operator route', async () => {
    for (const r of guarded().filter((x) => !isDeviceRoute(x.path))) {
      const res = await deviceRequest(admin, device, r.method, r.url, isMutating(r.method) ? { body: {} } : {});
      expect({ route: `${r.method} ${r.path}`, status: res.status }).toEqual({
        route: `${r.method} ${r.path}`,
        status: 401,
      });
    }
  });

  it('refuses a phone-host token on every operator and device route', async () => {
    const issued = await issueHostCredential(admin.db, { kind: 'system', name: 'test' }, 'route-table host');
    const host = { authorization: `Bearer ${issued.hostId}.${issued.token}` };
    for (const r of guarded().filter((x) => !x.path.startsWith('/api/host/'))) {
      const res = await deviceRequest(admin, host, r.method, r.url, isMutating(r.method) ? { body: {} } : {});
      expect({ route: `${r.method} ${r.path}`, status: res.status }).toEqual({
        route: `${r.method} ${r.path}`,
        status: 401,
      });
    }
  });

  it('refuses a session (even with its CSRF token) on every device route, with an empty 401', async () => {
    const deviceRoutes = guarded().filter((x) => isDeviceRoute(x.path));
    expect(deviceRoutes.length).toBeGreaterThan(0);
    for (const r of deviceRoutes) {
      const res = await operator.request(r.method, r.url, r.method === 'GET' ? undefined : {});
      expect({ route: `${r.method} ${r.path}`, status: res.status, body: res.body }).toEqual({
        route: `${r.method} ${r.path}`,
        status: 401,
        body: null,
      });
    }
  });

  it('refuses mixed credentials: a device token plus a session cookie opens neither kind of route', async () => {
    const both = { authorization: device.authorization };
    const opRes = await operator.get('/api/me', { headers: both });
    expect(opRes.status).toBe(401);
    const devRes = await operator.request(
      'POST',
      '/api/device/register',
      { serial: 's', model: 'm', app_version: '1' },
      { headers: both },
    );
    expect(devRes.status).toBe(401);
  });

  it('cannot be side-stepped by spelling the path differently', async () => {
    for (const path of ['/API/me', '/Api/devices', '//api/me', '/api/me/', '/api//devices']) {
      const res = await getJson(`${admin.url}${path}`);
      expect({ path, status: res.status }).toEqual({ path, status: 401 });
    }
    const res = await getJson(`${admin.url}/API/SYSTEM/CHECKS`, {
      method: 'POST',
      headers: { cookie: operator.sessionCookie ?? '', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(403);
  });
});
