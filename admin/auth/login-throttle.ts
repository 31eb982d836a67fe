/**
 * Failed logins per user name and per client address, in a sliding window. In memory on
 * purpose: the admin is one process, and a restart forgetting the counters is harmless next
 * to scrypt's cost per guess. Only failures count, so an operator who types correctly is
 * never locked out by colleagues on the same address.
 */
export interface ThrottlePolicy {
  windowMs: number;
  maxFailuresPerUser: number;
  maxFailuresPerAddress: number;
}

export const DEFAULT_THROTTLE_POLICY: ThrottlePolicy = { windowMs: 15 * 60_000, maxFailuresPerUser: 5, maxFailuresPerAddress: 20 };

// Bounds memory under a spray of random user names.
const MAX_KEYS = 10_000;

export class LoginThrottle {
  private readonly failures = new Map<string, number[]>();

  constructor(
    readonly policy: ThrottlePolicy = DEFAULT_THROTTLE_POLICY,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Seconds until the next attempt may be made, or 0 when it may be made now. */
  retryAfterSeconds(username: string, address: string): number {
    const now = this.clock();
    const waits = [
      this.waitFor(`u:${username}`, this.policy.maxFailuresPerUser, now),
      this.waitFor(`a:${address}`, this.policy.maxFailuresPerAddress, now),
    ];
    return Math.max(...waits);
  }

  recordFailure(username: string, address: string): void {
    const now = this.clock();
    if (this.failures.size >= MAX_KEYS) this.prune(now);
    for (const key of [`u:${username}`, `a:${address}`]) {
      const list = this.recent(key, now);
      list.push(now);
      this.failures.set(key, list);
    }
  }

  recordSuccess(username: string): void {
    this.failures.delete(`u:${username}`);
  }

  private recent(key: string, now: number): number[] {
    return (this.failures.get(key) ?? []).filter((t) => now - t < this.policy.windowMs);
  }

  private waitFor(key: string, max: number, now: number): number {
    const list = this.recent(key, now);
    if (list.length < max) return 0;
    const oldestCounted = list[list.length - max] ?? now;
    return Math.max(1, Math.ceil((oldestCounted + this.policy.windowMs - now) / 1000));
  }

  private prune(now: number): void {
    for (const [key, list] of this.failures) {
      if (list.every((t) => now - t >= this.policy.windowMs)) this.failures.delete(key);
    }
    // Still full: drop the oldest entries (Map keeps insertion order).
    for (const key of this.failures.keys()) {
      if (this.failures.size < MAX_KEYS) break;
      this.failures.delete(key);
    }
  }
}
