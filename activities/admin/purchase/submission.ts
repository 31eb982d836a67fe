import { writeTransaction, type AdminDb } from '../../../admin/db/database';
import {
  ATTEMPT_FOR_SUBMISSION,
  SUBMISSION_STATES,
  type SubmissionStatus,
} from '../../../domain/purchase/record-states';
import { purchaseResultSchema, type PurchaseResult } from '../../../domain/purchase/schemas';
import { nowUtc } from '../../../domain/time';
import { upgradePurchaseResult } from '../../../migrations/payloads/purchase-result';
import { nonRetryable } from './shared';

/** After the fence: the tap's time, the submission's outcome and the task's purchase result. */
export function submissionActivities(db: AdminDb) {
  return {
    async recordSubmissionTapped(input: { submissionId: string; tappedAt: string }): Promise<void> {
      await db
        .updateTable('order_submissions')
        .set({ order_submitted_at: input.tappedAt })
        .where('id', '=', input.submissionId)
        .where('order_submitted_at', 'is', null)
        .execute();
    },

    async recordSubmissionOutcome(input: {
      submissionId: string;
      status: Exclude<SubmissionStatus, 'FENCED'>;
      /** the PDD order number (wire name kept: recorded workflow histories carry it) */
      orderNo?: string | null;
      /** when the matched order was placed, UTC */
      orderedAt?: string | null;
    }): Promise<void> {
      await writeTransaction(db, async (trx) => {
        const sub = await trx
          .selectFrom('order_submissions')
          .select(['status', 'attempt_id'])
          .where('id', '=', input.submissionId)
          .executeTakeFirstOrThrow();
        // settled by the operator: nothing the workflow learns later changes it
        if (SUBMISSION_STATES.isTerminal(sub.status)) return;
        const now = nowUtc();
        await trx
          .updateTable('order_submissions')
          .set({
            status: input.status,
            ...(input.orderNo ? { pdd_order_no: input.orderNo } : {}),
            ...(input.orderedAt ? { ordered_at: input.orderedAt } : {}),
            ...(input.status === 'MANUAL_RESOLVED' ? { resolved_at: now } : {}),
          })
          .where('id', '=', input.submissionId)
          .execute();
        const attemptStatus = ATTEMPT_FOR_SUBMISSION[input.status];
        await trx
          .updateTable('purchase_attempts')
          .set({ status: attemptStatus, finished_at: now })
          .where('id', '=', sub.attempt_id)
          .execute();
      });
    },

    /**
     * The `purchase` object of the task's result, validated before it is stored; one a workflow
     * handed over before the PDD number's rename carries it as `order_no`.
     */
    async savePurchaseResult(input: { taskId: string; attemptId: string; purchase: PurchaseResult }): Promise<void> {
      const parsed = purchaseResultSchema.safeParse(upgradePurchaseResult(input.purchase));
      if (!parsed.success)
        throw nonRetryable(`purchase result invalid: ${parsed.error.message}`, 'PURCHASE_RESULT_INVALID');
      const json = JSON.stringify(parsed.data);
      await writeTransaction(db, async (trx) => {
        await trx
          .updateTable('purchase_attempts')
          .set({ purchase_json: json })
          .where('id', '=', input.attemptId)
          .execute();
        await trx
          .updateTable('tasks')
          .set({ result_data: JSON.stringify({ schema_version: 1, purchase: parsed.data }), updated_at: nowUtc() })
          .where('task_id', '=', input.taskId)
          .execute();
      });
    },
  };
}
