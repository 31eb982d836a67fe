import { onCleanup } from 'solid-js';

/**
 * Calls `tick` every `ms` while `active()` holds, for the lifetime of the calling component.
 * A tick still in flight skips the next one, so a slow admin never stacks requests.
 */
export function createPoll(ms: number, active: () => boolean, tick: () => Promise<unknown>): void {
  let inFlight = false;
  const timer = window.setInterval(() => {
    if (inFlight || !active() || document.hidden) return;
    inFlight = true;
    void tick()
      .catch(() => undefined)
      .finally(() => {
        inFlight = false;
      });
  }, ms);
  onCleanup(() => window.clearInterval(timer));
}
