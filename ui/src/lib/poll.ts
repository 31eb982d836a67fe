import { onCleanup } from 'solid-js';

export interface PollOptions {
  /** Ticks are skipped while this is false (e.g. nothing is collecting, the task is final). */
  while?: () => boolean;
  /** Also run once right away, whatever `while` and the tab say: the poller's own first load. */
  immediate?: boolean;
}

/**
 * The UI's one poller: calls `fn` every `intervalMs` for the lifetime of the calling component.
 * A tick still in flight skips the next one, so a slow admin never stacks requests; a hidden
 * tab does not poll; a failed tick is the caller's to show (it only ends that tick).
 */
export function createPoll(fn: () => Promise<unknown>, intervalMs: number, opts: PollOptions = {}): void {
  let inFlight = false;
  const run = (): void => {
    inFlight = true;
    void fn()
      .catch(() => undefined)
      .finally(() => {
        inFlight = false;
      });
  };
  const tick = (): void => {
    if (inFlight || document.hidden || (opts.while !== undefined && !opts.while())) return;
    run();
  };
  if (opts.immediate === true) run();
  const timer = window.setInterval(tick, intervalMs);
  onCleanup(() => window.clearInterval(timer));
}
