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
    expect(await verifyPassword('x', `scrypt$${2 ** 30}$8$1$${Buffer.alloc(16).toString('base64')}$${Buffer.alloc(32).toString('base64')}`)).toBe(false);
  });
});

describe('LoginThrottle', () => {
  it('limits failures per user and per address within a sliding window', () => {
    let t = 0;
    const th = new LoginThrottle({ windowMs: 60_000, maxFailuresPerUser: 2, maxFailuresPerAddress: 3 }, () => t);
    th.recordFailure('ann', '10.0.0.1');
    expect(th.retryAfterSeconds('ann', '10.0.0.1')).toBe(0);
    th.recordFailure('ann', '10.0.0.1');
    expect(th.retryAfterSeconds('ann', '10.0.0.2')).toBe(60);
    expect(th.retryAfterSeconds('bob', '10.0.0.1')).toBe(0);
    th.recordFailure('bob', '10.0.0.1');
    expect(th.retryAfterSeconds('cid', '10.0.0.1')).toBeGreaterThan(0);
    t = 61_000;
    expect(th.retryAfterSeconds('ann', '10.0.0.1')).toBe(0);
  });
});
