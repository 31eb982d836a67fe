/**
 * How long the session waits before it looks (docs/PERFORMANCE.md, device section). A dump is the
 * only proof and the dearest thing a phone does (1.2–2.5 s on a real one), so the session looks as
 * soon as the screen can show the input's effect and re-looks only at a loading screen, a stale
 * dump or the screen exactly as before the input — never a pause longer than a page's settle.
 */
export interface SessionTiming {
  /**
   * pause after an in-app navigation tap (the spec-panel entry, back) before its first dump. None
   * by default: `uiautomator dump` waits for the app to be idle before it reads the tree, so a dump
   * taken while the new page settles (0.3–1.5 s) returns the settled page — the dump is the wait,
   * as after `am start`. A dump that shows the loading marker anyway is looked at again.
   */
  navigationSettleMs: number;
  /** pause after an option or quantity tap before the dump that proves it (the panel redraws in place) */
  tapSettleMs: number;
  swipeSettleMs: number;
  /** the longest pause before re-dumping a loading, stale or unchanged screen (the first re-dump is at once, then ¼, ½, 1×) */
  loadingPollMs: number;
  /** most dumps one wait may take before it gives up */
  maxDumpsPerWait: number;
  waitTimeoutMs: number;
  /** dumps of the panel exactly as before an option, quantity or swipe input that are re-dumped before the read-back fails */
  maxUnchangedDumps?: number;
}

export const DEFAULT_TIMING: SessionTiming = {
  navigationSettleMs: 0,
  tapSettleMs: 0,
  swipeSettleMs: 0,
  loadingPollMs: 500,
  maxDumpsPerWait: 8,
  waitTimeoutMs: 60_000,
  maxUnchangedDumps: 2,
};

/**
 * The pause before a wait's next dump, `again` looks after its first: a dump takes long enough
 * for most settles, so the first re-dump is at once, then the pause backs off to the cap.
 */
export function redumpPauseMs(timing: SessionTiming, again: number): number {
  return again === 0 ? 0 : Math.min(timing.loadingPollMs, (timing.loadingPollMs / 4) * 2 ** (again - 1));
}

export function sleep(ms: number): Promise<void> {
  return ms > 0 ? new Promise((r) => setTimeout(r, ms)) : Promise.resolve();
}
