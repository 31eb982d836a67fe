import { ApplicationFailure, Context } from '@temporalio/activity';
import type { SybService } from '../../admin/syb/account';
import { SybError } from '../../admin/syb/client';
import { syncSybOrders } from '../../admin/syb/sync';
import { ApiError } from '../../domain/api-error';
import type { SybSyncCounts } from '../../domain/syb';

/**
 * How often the sync heartbeats whatever it is doing. The SDK sends at most one heartbeat per
 * 80 % of the activity's heartbeat timeout (workflows/syb-sync.ts); calling it more often only
 * keeps the latest progress ready to send.
 */
const HEARTBEAT_EVERY_MS = 1_000;

export function sybActivities(syb: SybService) {
  return {
    /**
     * Idempotent: every line is an upsert and `last_synced_at` only moves on success, so a
     * retry repeats the same days harmlessly. Returns counts only — order lines and the
     * recipients' data never enter Temporal history.
     *
     * It heartbeats on a clock, not only per page: a slow upstream must not look like a dead
     * worker, and a heartbeat's answer is how this activity learns that its workflow was
     * cancelled or terminated (the server then answers the heartbeat with a cancel, or with
     * "not found"): the SDK aborts `cancellationSignal`, and the sync abandons its call in
     * flight and stops within one heartbeat interval.
     */
    async syncSybOrders(): Promise<SybSyncCounts> {
      const ctx = Context.current();
      let progress = { pages: 0, lines: 0 };
      ctx.heartbeat(progress);
      const beat = setInterval(() => ctx.heartbeat(progress), HEARTBEAT_EVERY_MS);
      try {
        return await syncSybOrders(syb, {
          heartbeat: (p) => {
            progress = p;
            ctx.heartbeat(p);
          },
          signal: ctx.cancellationSignal,
        });
      } catch (err) {
        // reported as cancelled, not failed: the SDK recognises its own CancelledFailure
        if (ctx.cancellationSignal.aborted) throw ctx.cancellationSignal.reason;
        if (err instanceof SybError) {
          throw ApplicationFailure.create({ type: err.code, message: err.message, nonRetryable: !err.retryable });
        }
        // a budget setting edited by hand past its range (SETTING_INVALID): no retry heals it
        if (err instanceof ApiError) {
          throw ApplicationFailure.create({ type: err.code, message: err.message, nonRetryable: true });
        }
        throw err;
      } finally {
        clearInterval(beat);
      }
    },
  };
}
