import {
  OperatorClient,
  TEST_ADMIN_PASSWORD,
  getJson,
  loginOperator,
  startTestAdmin,
  type TestAdmin,
} from '../harness';
import { addUser } from '../../admin/auth/users';

describe('operator login, session and CSRF', () => {
  let admin: TestAdmin;

  beforeAll(async () => {
    admin = await startTestAdmin({
      runWorker: false,
      security: { throttlePolicy: { windowMs: 60_000, maxFailuresPerUser: 3, maxFailuresPerAddress: 8 } },
    });
  });
  afterAll(async () => {
    await admin?.close();
  });

  it('logs in with a HttpOnly, SameSite=Strict cookie and a CSRF token; /api/me names the operator', async () => {
    const res = await getJson(`${admin.url}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: TEST_ADMIN_PASSWORD }),
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ csrf_token: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('cmautobuy_session='));
    expect(cookie).toBeDefined();
    expect(cookie).toMatch(/;\s*httponly/i);
    expect(cookie).toMatch(/;\s*samesite=strict/i);
    expect(cookie).toMatch(/;\s*path=\//i);
    expect(cookie).toMatch(/^cmautobuy_session=[0-9a-f]{64};/);

    const operator = await loginOperator(admin);
    const me = await operator.get('/api/me');
    expect(me.status).toBe(200);
    expect(me.body).toEqual({ username: 'admin', csrf_token: operator.csrfToken });
    expect(me.headers.get('cache-control')).toBe('no-store');
  });

  it('logs out: the same cookie is refused afterwards', async () => {
    const operator = await loginOperator(admin);
    const cookie = operator.sessionCookie;
    const out = await operator.del('/api/session');
    expect(out.status).toBe(204);
    const res = await getJson(`${admin.url}/api/me`, { headers: { cookie: cookie ?? '' } });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ error: { code: 'UNAUTHENTICATED' } });
  });

  it('refuses a wrong password and an unknown user alike, and audits the attempt without the typed name', async () => {
    await addUser(admin.db, { kind: 'system', name: 'test' }, 'carol', 'carol-password-1');
    const wrong = await new OperatorClient(admin.url).login('carol', 'nope-nope');
    const unknown = await new OperatorClient(admin.url).login('my-secret-password', 'nope-nope');
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    const failures = await admin.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'session.login_failed')
      .execute();
    expect(failures.map((f) => f.target_id)).toEqual(['carol', null]);
    expect(JSON.stringify(failures)).not.toContain('my-secret-password');
    expect(JSON.stringify(failures)).not.toContain('nope-nope');
  });

  it('rate-limits failed logins per user, even with the right password, with Retry-After', async () => {
    await addUser(admin.db, { kind: 'system', name: 'test' }, 'dave', 'dave-password-1');
    for (let i = 0; i < 3; i++)
      expect((await new OperatorClient(admin.url).login('dave', `wrong-${i}`)).status).toBe(401);
    const limited = await new OperatorClient(admin.url).login('dave', 'dave-password-1');
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ error: { code: 'LOGIN_RATE_LIMITED' } });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // Other users are not locked out by dave's failures.
    expect((await new OperatorClient(admin.url).login('admin', TEST_ADMIN_PASSWORD)).status).toBe(200);
  });

  it('rate-limits failed logins per address, across user names', async () => {
    // 4 failures already came from this address in the tests above; the limit is 8.
    for (let i = 0; i < 4; i++) await new OperatorClient(admin.url).login(`nobody-${i}`, 'whatever-1');
    const limited = await new OperatorClient(admin.url).login('admin', TEST_ADMIN_PASSWORD);
    expect(limited.status).toBe(429);
  });
});

describe('session lifetime', () => {
  let admin: TestAdmin;
  beforeAll(async () => {
    admin = await startTestAdmin({
      runWorker: false,
      // 2 s, not 1: last_seen_at is kept to the second, so a login late in a second already
      // looks up to a second old to the request right after it
      security: { sessionPolicy: { idleSeconds: 2, absoluteSeconds: 3600 } },
    });
  });
  afterAll(async () => {
    await admin?.close();
  });

  it('ends an idle session, and the UI gets a 401 that sends it back to login', async () => {
    const operator = await loginOperator(admin);
    expect((await operator.get('/api/me')).status).toBe(200);
    await new Promise((r) => setTimeout(r, 3100));
    const res = await operator.get('/api/me');
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ error: { code: 'UNAUTHENTICATED' } });
    expect(await admin.db.selectFrom('sessions').selectAll().execute()).toHaveLength(0);
  });
});
