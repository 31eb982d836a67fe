/**
 * The login limit (docs/security.md "Login limit"). In memory on purpose: the admin is one
 * process, and a restart forgetting the counters is harmless next to scrypt's cost per guess.
 *
 * An attempt is counted when it is admitted — synchronously, before the password is checked —
 * and un-counted only if the password was right. Admission and counting happen in one call
 * with no `await` between them, so parallel guesses cannot all slip past a check that was made
 * before any of them had been counted.
 *
 * Three buckets, so that the limit holds an attacker back without locking operators out:
 * - per user name (`u:`): after `maxFailuresPerUser` failures in the window each further
 *   attempt waits twice as long as the one before, up to `maxDelayMs` — a slow-down, never a
 *   lock-out of a quarter hour;
 * - per client address (`a:`): `maxFailuresPerAddress` failures in the window, then a refusal
 *   until the oldest one is out of the window — a spray of made-up names from one place;
 * - per known client (`k:`): a browser that has logged in as this user before (it holds a
 *   signed cookie, admin/auth/known-clients.ts) is counted only in a bucket of its own, with the
 *   per-user slow-down. Strangers guessing `admin` therefore never slow the operator down.
 */
export interface ThrottlePolicy {
  windowMs: number;
  maxFailuresPerUser: number;
  maxFailuresPerAddress: number;
  /** the wait after the first failure over `maxFailuresPerUser`; it doubles with each further one */
  baseDelayMs: number;
  /** the longest wait the per-user slow-down ever asks for */
  maxDelayMs: number;
}

const DEFAULT_THROTTLE_POLICY: ThrottlePolicy = {
  windowMs: 15 * 60_000,
  maxFailuresPerUser: 5,
  maxFailuresPerAddress: 20,
  baseDelayMs: 1000,
  maxDelayMs: 60_000,
};

export interface LoginClient {
  username: string;
  address: string;
  /** set when the request carries a valid known-client cookie for this user name */
  knownClientId?: string | undefined;
}

/** An admitted attempt; pass it back to `succeeded` when the password was right. */
export interface LoginAttempt {
  readonly keys: readonly string[];
  readonly at: number;
}

export type Admission = { admitted: true; attempt: LoginAttempt } | { admitted: false; retryAfterSeconds: number };

// Bounds memory under a spray of random user names.
const MAX_KEYS = 10_000;

export class LoginThrottle {
  private readonly attempts = new Map<string, number[]>();

  readonly policy: ThrottlePolicy;

  constructor(
    policy: Partial<ThrottlePolicy> = {},
    private readonly clock: () => number = Date.now,
  ) {
    this.policy = { ...DEFAULT_THROTTLE_POLICY, ...policy };
  }

  /** Admits and counts the attempt, or says how long to wait. Synchronous by design. */
  admit(client: LoginClient): Admission {
    const now = this.clock();
    const keys = this.keysOf(client);
    const wait = Math.max(
      ...keys.map((key) => (key.startsWith('a:') ? this.addressWait(key, now) : this.slowDownWait(key, now))),
    );
    if (wait > 0) return { admitted: false, retryAfterSeconds: Math.max(1, Math.ceil(wait / 1000)) };
    if (this.attempts.size >= MAX_KEYS) this.prune(now);
    for (const key of keys) this.attempts.set(key, [...this.recent(key, now), now]);
    return { admitted: true, attempt: { keys, at: now } };
  }

  /** The password was right: this attempt is not a failure. Other failures stay counted. */
  succeeded(attempt: LoginAttempt): void {
    for (const key of attempt.keys) {
      const list = this.attempts.get(key);
      const i = list?.indexOf(attempt.at) ?? -1;
      if (list && i >= 0) list.splice(i, 1);
      if (list?.length === 0) this.attempts.delete(key);
    }
  }

  private keysOf(client: LoginClient): string[] {
    if (client.knownClientId) return [`k:${client.username}\u0000${client.knownClientId}`];
    return [`u:${client.username}`, `a:${client.address}`];
  }

  private recent(key: string, now: number): number[] {
    return (this.attempts.get(key) ?? []).filter((t) => now - t < this.policy.windowMs);
  }

  private slowDownWait(key: string, now: number): number {
    const list = this.recent(key, now);
    const over = list.length - this.policy.maxFailuresPerUser;
    if (over < 0) return 0;
    const delay = Math.min(this.policy.baseDelayMs * 2 ** Math.min(over, 30), this.policy.maxDelayMs);
    return Math.max(0, list[list.length - 1]! + delay - now);
  }

  private addressWait(key: string, now: number): number {
    const list = this.recent(key, now);
    const max = this.policy.maxFailuresPerAddress;
    if (list.length < max) return 0;
    return Math.max(1, list[list.length - max]! + this.policy.windowMs - now);
  }

  private prune(now: number): void {
    for (const [key, list] of this.attempts) {
      if (list.every((t) => now - t >= this.policy.windowMs)) this.attempts.delete(key);
    }
    // Still full: drop the oldest entries (Map keeps insertion order).
    for (const key of this.attempts.keys()) {
      if (this.attempts.size < MAX_KEYS) break;
      this.attempts.delete(key);
    }
  }
}
