import type { LatencyProfile } from './faults';

export type LatencyKind =
  'dump' | 'tap' | 'am_start' | 'screencap' | 'settle' | 'shell' | 'agent_start' | 'agent_source';

// Ranges in ms from sim/phone/SCREENS.md ("ADB side", latency); `shell` is the round trip of any other command on a phone.
const REALISTIC: Record<LatencyKind, readonly [number, number]> = {
  dump: [1200, 2500],
  tap: [80, 200],
  am_start: [600, 1200],
  screencap: [300, 600],
  settle: [300, 1500],
  shell: [20, 60],
  // Estimates, not measured here: the UiAutomator2 server's start after `am instrument` and its
  // `GET /source` (~250 ms median), which skips uiautomator's process start and file write.
  agent_start: [1500, 3000],
  agent_source: [150, 350],
};

export function latencyMs(profile: LatencyProfile, kind: LatencyKind, random: () => number): number {
  if (profile === 'zero') return 0;
  const [lo, hi] = REALISTIC[kind];
  return Math.round(lo + (hi - lo) * random());
}

/**
 * How long `uiautomator dump` waits for the app to go idle before it gives up (AOSP DumpCommand:
 * 10 s); `zero` keeps a short wait so a test still sees the refusal come late.
 */
export function idleTimeoutMs(profile: LatencyProfile): number {
  return profile === 'realistic' ? 10_000 : 300;
}

export function sleep(ms: number): Promise<void> {
  return ms <= 0 ? Promise.resolve() : new Promise((resolve) => setTimeout(resolve, ms));
}

/** mulberry32: a seedable PRNG so a fault-driven test can be made repeatable. */
export function makeRng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
