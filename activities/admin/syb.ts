import { ApplicationFailure, Context } from '@temporalio/activity';
import type { SybService } from '../../admin/syb/account';
import { SybError } from '../../admin/syb/client';
import { syncSybOrders } from '../../admin/syb/sync';
import type { SybSyncCounts } from '../../domain/syb';

export function sybActivities(syb: SybService) {
  return {
    /**
     * Idempotent: every line is an upsert and `last_synced_at` only moves on success, so a
     * retry repeats the same days harmlessly. Returns counts only — order lines and the
     * recipients' data never enter Temporal history.
     */
    async syncSybOrders(): Promise<SybSyncCounts> {
      try {
        return await syncSybOrders(syb, (progress) => Context.current().heartbeat(progress));
      } catch (err) {
        if (err instanceof SybError) {
          throw ApplicationFailure.create({ type: err.code, message: err.message, nonRetryable: !err.retryable });
        }
        throw err;
      }
    },
  };
}
