import type { AdminDb } from '../../../admin/db/database';
import { attemptActivities } from './attempt';
import { fenceActivities } from './fence';
import { heldProgressActivities } from './held';
import { statusActivities } from './status';
import { submissionActivities } from './submission';

/**
 * The admin side of the purchase workflow. Each activity is idempotent (a retry after a lost
 * response changes nothing) and refuses to act for an authorization that is not the task's
 * current one, so a stale workflow can never move a task it no longer owns.
 */
export function purchaseActivities(db: AdminDb) {
  const status = statusActivities(db);
  const attempt = attemptActivities(db);
  return {
    ...status,
    ...attempt,
    ...heldProgressActivities(db, attempt, status),
    ...fenceActivities(db),
    ...submissionActivities(db),
  };
}
