import { hashPassword, SCRYPT_PARAMS, verifyPassword } from './passwords';
import { LoginThrottle } from './login-throttle';

describe('passwords', () => {
  it('hashes with scrypt at the documented parameters and a per-hash salt', async () => {
    const a = await hashPassword('correct horse');
    const b = await hashPassword('correct horse');
    expect(a).toMatch(new RegExp(`^scrypt\\$${SCRYPT_PARAMS.N}\\$${SCRYPT_PARAMS.r}\\$${SCRYPT_PARAMS.p}\\$`));
    expect(a).not.toBe(b);
    expect(a).not.toContain('correct horse');
    expect(await verifyPassword('correct horse', a)).toBe(true);
    expect(await verifyPassword('correct horsE', a)).toBe(false);
  });

  it('refuses a malformed or absurdly expensive stored hash instead of running it', async () => {
    expect(await verifyPassword('x', 'plain-text')).toBe(false);
    expect(
      await verifyPassword(
        'x',
        `scrypt$${2 ** 30}$8$1$${Buffer.alloc(16).toString('base64')}$${Buffer.alloc(32).toString('base64')}`,
      ),
    ).toBe(false);
  });
});

describe('LoginThrottle', () => {
  const client = (username: string, address: string, knownClientId?: string) => ({ username, address, knownClientId });

  it('counts an attempt when it is admitted, so the limit holds before any password is checked', () => {
    const th = new LoginThrottle({ maxFailuresPerUser: 2, maxFailuresPerAddress: 10 }, () => 0);
    const admitted = Array.from({ length: 10 }, () => th.admit(client('ann', '10.0.0.1'))).filter((a) => a.admitted);
    expect(admitted).toHaveLength(2);
  });

  it('slows a user name down progressively instead of locking it out for the window', () => {
    let t = 0;
    const th = new LoginThrottle(
      { windowMs: 15 * 60_000, maxFailuresPerUser: 2, maxFailuresPerAddress: 100, baseDelayMs: 1000, maxDelayMs: 8000 },
      () => t,
    );
    th.admit(client('ann', '10.0.0.1'));
    th.admit(client('ann', '10.0.0.1'));
    expect(th.admit(client('ann', '10.0.0.2'))).toEqual({ admitted: false, retryAfterSeconds: 1 });
    const waits: number[] = [];
    for (let i = 0; i < 6; i++) {
      const refused = th.admit(client('ann', '10.0.0.3'));
      if (!refused.admitted) {
        waits.push(refused.retryAfterSeconds);
        t += refused.retryAfterSeconds * 1000;
      }
      expect(th.admit(client('ann', '10.0.0.3')).admitted).toBe(!refused.admitted);
    }
    expect(waits).toEqual([1, 2, 4, 8, 8, 8]); // doubles, then stays at maxDelayMs
  });

  it('limits failures per address across user names, in a sliding window', () => {
    let t = 0;
    const th = new LoginThrottle({ windowMs: 60_000, maxFailuresPerUser: 100, maxFailuresPerAddress: 3 }, () => t);
    for (const name of ['a', 'b', 'c']) expect(th.admit(client(name, '10.0.0.1')).admitted).toBe(true);
    expect(th.admit(client('d', '10.0.0.1'))).toEqual({ admitted: false, retryAfterSeconds: 60 });
    expect(th.admit(client('d', '10.0.0.2')).admitted).toBe(true);
    t = 60_000;
    expect(th.admit(client('d', '10.0.0.1')).admitted).toBe(true);
  });

  it("un-counts a successful attempt only, and keeps a known client out of strangers' buckets", () => {
    const th = new LoginThrottle({ maxFailuresPerUser: 2, maxFailuresPerAddress: 100 }, () => 0);
    const ok = th.admit(client('ann', '10.0.0.1'));
    if (!ok.admitted) throw new Error('first attempt refused');
    th.succeeded(ok.attempt);
    th.admit(client('ann', '10.0.0.9'));
    th.admit(client('ann', '10.0.0.9'));
    expect(th.admit(client('ann', '10.0.0.1')).admitted).toBe(false);
    expect(th.admit(client('ann', '10.0.0.9', 'browser-1')).admitted).toBe(true);
  });
});
