import { KNOWN_CLIENT_COOKIE } from '../../admin/auth/known-clients';
import { getJson, startTestAdmin, TEST_ADMIN_PASSWORD, type TestAdmin } from '../harness';

/** A browser with its whole cookie jar (the harness client keeps only the session cookie). */
class Browser {
  readonly jar = new Map<string, string>();
  constructor(
    readonly baseUrl: string,
    readonly headers: Record<string, string> = {},
  ) {}

  async login(username: string, password: string) {
    const cookie = [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await getJson(`${this.baseUrl}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}), ...this.headers },
      body: JSON.stringify({ username, password }),
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = (pair ?? '').indexOf('=');
      if (eq > 0) this.jar.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
    return { ...res, setCookie: res.headers.getSetCookie() };
  }
}

const failedChecks = (admin: TestAdmin) =>
  admin.db.selectFrom('audit_log').select('id').where('action', '=', 'session.login_failed').execute();

describe('login limit under parallel guesses', () => {
  let admin: TestAdmin;
  beforeAll(async () => {
    // a long first delay, so no slow machine can let a stranger's attempt through by waiting it out
    admin = await startTestAdmin({
      runWorker: false,
      security: {
        throttlePolicy: { maxFailuresPerUser: 5, maxFailuresPerAddress: 20, baseDelayMs: 40_000, maxDelayMs: 60_000 },
      },
    });
  });
  afterAll(async () => {
    await admin?.close();
  });

  it('checks at most the limit of 30 parallel wrong passwords, and the operator still logs in', async () => {
    // The operator's own browser logged in earlier: it holds the known-client cookie.
    const operator = new Browser(admin.url);
    const first = await operator.login('admin', TEST_ADMIN_PASSWORD);
    expect(first.status).toBe(200);
    expect(operator.jar.has(KNOWN_CLIENT_COOKIE)).toBe(true);

    const before = (await failedChecks(admin)).length;
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) => new Browser(admin.url).login('admin', `guess-${i}`)),
    );
    const statuses = results.map((r) => r.status);
    const checked = statuses.filter((s) => s === 401).length;
    expect(checked).toBeLessThanOrEqual(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30 - checked);
    expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
    // only the admitted attempts reached the password check (each failure is audited)
    expect((await failedChecks(admin)).length - before).toBe(checked);

    // The attack slows strangers down — Retry-After is the short progressive delay, never the window.
    const stranger = await new Browser(admin.url).login('admin', TEST_ADMIN_PASSWORD);
    expect(stranger.status).toBe(429);
    expect(Number(stranger.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(stranger.headers.get('retry-after'))).toBeLessThanOrEqual(60);

    // The operator's own browser is not slowed by strangers' guesses.
    const again = await operator.login('admin', TEST_ADMIN_PASSWORD);
    expect(again.status).toBe(200);
  });

  it('a forged known-client cookie counts for nothing', async () => {
    const forger = new Browser(admin.url);
    forger.jar.set(KNOWN_CLIENT_COOKIE, `${Math.floor(Date.now() / 1000)}.${'a'.repeat(32)}.${'b'.repeat(64)}`);
    const res = await forger.login('admin', TEST_ADMIN_PASSWORD);
    expect(res.status).toBe(429); // still slowed like any stranger after the attack above
  });
});

describe('login limit per address', () => {
  it('ignores X-Forwarded-For unless CMAUTOBUY_TRUST_PROXY says a proxy is in front', async () => {
    const admin = await startTestAdmin({
      runWorker: false,
      security: { throttlePolicy: { maxFailuresPerUser: 100, maxFailuresPerAddress: 3 } },
    });
    try {
      for (let i = 0; i < 3; i++) {
        const r = await new Browser(admin.url, { 'x-forwarded-for': `10.0.0.${i}` }).login(
          `nobody-${i}`,
          'wrong-password',
        );
        expect(r.status).toBe(401);
      }
      // a spoofed header does not give a fresh address: the socket's address is what counts
      const spoofed = await new Browser(admin.url, { 'x-forwarded-for': '10.9.9.9' }).login(
        'nobody-x',
        'wrong-password',
      );
      expect(spoofed.status).toBe(429);
    } finally {
      await admin.close();
    }
  });

  it('behind a trusted proxy, limits each client address apart and marks the cookies Secure', async () => {
    const admin = await startTestAdmin({
      runWorker: false,
      security: { trustProxy: true, throttlePolicy: { maxFailuresPerUser: 100, maxFailuresPerAddress: 3 } },
    });
    try {
      const fromA = new Browser(admin.url, { 'x-forwarded-for': '203.0.113.7' });
      for (let i = 0; i < 3; i++) expect((await fromA.login(`nobody-${i}`, 'wrong-password')).status).toBe(401);
      expect((await fromA.login('nobody-x', 'wrong-password')).status).toBe(429);
      // another operator behind the same proxy is not locked out by A's failures
      const fromB = new Browser(admin.url, { 'x-forwarded-for': '198.51.100.20' });
      const ok = await fromB.login('admin', TEST_ADMIN_PASSWORD);
      expect(ok.status).toBe(200);
      expect(ok.setCookie.length).toBeGreaterThanOrEqual(2);
      for (const line of ok.setCookie) expect(line.toLowerCase()).toContain('; secure');
      // a client cannot pick its address by prepending its own entry: the proxy's last one counts
      const prepended = new Browser(admin.url, { 'x-forwarded-for': '198.51.100.99, 203.0.113.7' });
      expect((await prepended.login('nobody-y', 'wrong-password')).status).toBe(429);
    } finally {
      await admin.close();
    }
  });
});
