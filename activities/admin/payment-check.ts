import type { AdminDb } from '../../admin/db/database';
import { purchaseWorkflowInput } from '../../admin/purchase/workflow-input';
import type { PaymentCheckReading, PaymentChecksDue, PaymentCheckInput } from '../../domain/contracts/payment-check';
import { paymentCheckVerdict } from '../../domain/purchase/payment-check';
import { nowUtc } from '../../domain/time';

/** At most this many tasks of one phone are settled by one look (a bulk 标记已付款 takes 200). */
const CHECKS_PER_LOOK = 500;

/**
 * The admin side of the payment check (workflows/payment-check.ts): which tasks of a phone wait
 * for a look, and what the look found. Both idempotent: a verdict is written only over the very
 * request it answers, so a retry, or a look that a newer request overtook, changes nothing.
 */
export function paymentCheckActivities(db: AdminDb) {
  return {
    async paymentChecksDue(input: PaymentCheckInput): Promise<PaymentChecksDue> {
      const rows = await db
        .selectFrom('payment_checks')
        .select(['task_id', 'requested_at'])
        .where('device_id', '=', input.deviceId)
        .where('status', '=', 'pending')
        .orderBy('requested_at')
        .limit(CHECKS_PER_LOOK)
        .execute();
      const checks = rows.map((r) => ({ taskId: r.task_id, requestedAt: r.requested_at }));
      if (checks.length === 0) return { checks, target: null };
      // any purchase the phone made will do: the list it reads is the phone's whole 待付款 tab
      const auth = await db
        .selectFrom('order_authorizations as a')
        .innerJoin('purchase_attempts as p', 'p.authorization_id', 'a.id')
        .select([
          'a.id',
          'a.task_id',
          'a.goods_id',
          'a.pdd_options',
          'a.quantity',
          'a.max_total_price_cent',
          'a.execution_mode',
          'a.expires_at',
          'p.id as attempt_id',
        ])
        .where(
          'a.task_id',
          'in',
          checks.map((c) => c.taskId),
        )
        .where('p.device_id', '=', input.deviceId)
        .orderBy('p.started_at', 'desc')
        .limit(1)
        .executeTakeFirst();
      if (!auth) return { checks, target: null };
      const { expiresAt: _expiry, ...target } = purchaseWorkflowInput(auth);
      return { checks, target: { ...target, attemptId: auth.attempt_id } };
    },

    async recordPaymentCheck(input: PaymentCheckReading): Promise<void> {
      const now = nowUtc();
      for (const check of input.checks) {
        const row = await db
          .selectFrom('payment_checks')
          .select(['pdd_order_no'])
          .where('task_id', '=', check.taskId)
          .where('device_id', '=', input.deviceId)
          .where('requested_at', '=', check.requestedAt)
          .where('status', '=', 'pending')
          .executeTakeFirst();
        if (!row) continue;
        const verdict = paymentCheckVerdict(row.pdd_order_no, input.listed, input.why);
        await db
          .updateTable('payment_checks')
          .set({ status: verdict.status, message: verdict.message, checked_at: now })
          .where('task_id', '=', check.taskId)
          .where('requested_at', '=', check.requestedAt)
          .where('status', '=', 'pending')
          .execute();
      }
    },
  };
}
