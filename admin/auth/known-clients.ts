import crypto from 'node:crypto';

export const KNOWN_CLIENT_COOKIE = 'cmautobuy_known_client';

/** A browser that logged in once is trusted for the login limit this long. */
const KNOWN_CLIENT_MAX_AGE_MS = 30 * 24 * 3600 * 1000;

const VALUE_RE = /^(\d{1,12})\.([0-9a-f]{32})\.([0-9a-f]{64})$/;

/**
 * "This browser has logged in as this user before": a cookie the admin signs on a successful
 * login, so the login limit can tell the operator's own browser from a stranger guessing the
 * same user name (admin/auth/login-throttle.ts). It proves nothing else and opens nothing:
 * the password is still checked on every login.
 *
 * The signing key lives in memory only — secrets never go to the data directory. A restart
 * therefore forgets every known client, and with it every login counter (they are in memory
 * too), so the balance between the two is kept.
 */
export class KnownClients {
  private readonly key = crypto.randomBytes(32);

  constructor(private readonly clock: () => number = Date.now) {}

  issue(username: string): { value: string; maxAgeMs: number } {
    const issued = Math.floor(this.clock() / 1000);
    const id = crypto.randomBytes(16).toString('hex');
    return { value: `${issued}.${id}.${this.mac(username, issued, id)}`, maxAgeMs: KNOWN_CLIENT_MAX_AGE_MS };
  }

  /** The client's id when `value` is a live cookie this process issued for `username`. */
  verify(value: string | undefined, username: string): string | undefined {
    const m = value === undefined ? null : VALUE_RE.exec(value);
    if (!m) return undefined;
    const issued = Number(m[1]);
    if (this.clock() - issued * 1000 >= KNOWN_CLIENT_MAX_AGE_MS) return undefined;
    const expected = Buffer.from(this.mac(username, issued, m[2]!), 'hex');
    const presented = Buffer.from(m[3]!, 'hex');
    return crypto.timingSafeEqual(expected, presented) ? m[2] : undefined;
  }

  private mac(username: string, issued: number, id: string): string {
    return crypto
      .createHmac('sha256', this.key)
      .update(`cmautobuy known client v1\u0000${username}\u0000${issued}\u0000${id}`)
      .digest('hex');
  }
}
