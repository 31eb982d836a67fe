import type { AdminDb } from '../../../admin/db/database';
import type { attemptActivities } from './attempt';
import type { statusActivities } from './status';

/**
 * While a phone is held, the writes that only record where the purchase is — the attempt begun,
 * CLAIMED, ORDERING — are one activity: one round trip to the admin instead of three, the same
 * rows and timeline. Each part is idempotent and a retry skips the moves already made.
 */
export function heldProgressActivities(
  db: AdminDb,
  attempt: ReturnType<typeof attemptActivities>,
  status: ReturnType<typeof statusActivities>,
) {
  return {
    async beginOrdering(input: {
      taskId: string;
      authorizationId: string;
      deviceId: string;
      workflowId: string;
    }): Promise<{ attemptId: string; deviceName?: string }> {
      // a revoked phone is stopped here, before any state moves (DEVICE_REVOKED)
      const begun = await attempt.beginPurchaseAttempt(input);
      const move = { taskId: input.taskId, authorizationId: input.authorizationId, deviceId: input.deviceId };
      const task = await db.selectFrom('tasks').select('status').where('task_id', '=', input.taskId).executeTakeFirst();
      // PENDING → CLAIMED → ORDERING; a retry that finds CLAIMED or ORDERING only finishes the move
      if (task?.status === 'PENDING') await status.recordPurchaseStatus({ ...move, to: 'CLAIMED' });
      await status.recordPurchaseStatus({ ...move, to: 'ORDERING' });
      return begun;
    },
  };
}
