import { Context } from '@temporalio/activity';
import { CancelledFailure } from '@temporalio/common';

/**
 * The safe point between two phone actions, when the session runs inside a Temporal activity:
 * it heartbeats (a phone host that died is noticed within the activity's heartbeat timeout, and
 * the heartbeat is what brings a cancel to the activity), then stops the activity if it was
 * cancelled. Outside an activity (`npm run device`, unit tests) it does nothing. Never called
 * between submitOnce's ledger row and its tap.
 */
export function activityCheckpoint(what: string): void {
  let ctx: Context;
  try {
    ctx = Context.current();
  } catch {
    return;
  }
  ctx.heartbeat({ at: what });
  if (ctx.cancellationSignal.aborted) throw new CancelledFailure(`cancelled before ${what}`);
}
