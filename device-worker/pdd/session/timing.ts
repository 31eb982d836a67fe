/**
 * How long the session waits before it looks (docs/PERFORMANCE.md, device section). A dump is the
 * only proof and the dearest thing a phone does (1.2–2.5 s on a real one), so the session looks as
 * soon as the screen can show the input's effect and re-looks only at a loading screen, a stale
 * dump or the screen exactly as before the input — never a pause longer than a page's settle.
 */
export interface SessionTiming {
  /**
   * pause after an in-app navigation tap (the spec-panel entry, back) before its first dump: the
   * app shows its loading marker until the new page has settled (0.3–1.5 s), and a dump of the
   * marker costs more than the rest of the settle. `am start` has none: the app shows the marker
   * first whatever the wait, so the first dump is the wait.
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
  navigationSettleMs: 1100,
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
