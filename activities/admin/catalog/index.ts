import type { AdminDb } from '../../../admin/db/database';
import { saveCollectResult, type SaveCollectResultInput } from './result';
import { currentRunId, type CollectOutcome } from './run';
import { markCollectFailed, markCollecting, type MarkCollectFailedInput, type MarkCollectingInput } from './status';

/**
 * The admin side of the collect workflow. Each one is
 * idempotent per collect run: the tasks row of the run records the outcome once, and a retry
 * (or a late duplicate) returns that outcome without changing anything.
 *
 * Names and inputs follow activities/admin/catalog-contract.ts of the collect workflow; the
 * names are registered with Temporal and recorded in histories, so they never change.
 */
export function catalogActivities(db: AdminDb, opts: { runId?: () => string | undefined } = {}) {
  const runIdOf = () => currentRunId(opts.runId?.());
  return {
    // async, so a missing run id rejects like any other failure of the activity
    markCollecting: async (input: MarkCollectingInput): Promise<void> => markCollecting(db, runIdOf(), input),
    saveCollectResult: async (input: SaveCollectResultInput): Promise<CollectOutcome> =>
      saveCollectResult(db, runIdOf(), input),
    markCollectFailed: async (input: MarkCollectFailedInput): Promise<void> => markCollectFailed(db, runIdOf(), input),
  };
}
