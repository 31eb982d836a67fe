import { recordAudit } from '../../../admin/audit/audit';
import { recordPurchaseTransition } from '../../../admin/metrics/metrics';
import { writeTransaction, type AdminDb } from '../../../admin/db/database';
import { stopReason } from '../../../admin/devices/purchase-hooks';
import type { PurchaseStatus } from '../../../domain/purchase/status';
import { AUTHORIZATION_STATES } from '../../../domain/purchase/record-states';
import { canTransition, column, isTerminal } from '../../../domain/purchase/state-machine';
import { parseStopFacts, type StopFacts } from '../../../domain/purchase/stop-facts';
import { nowUtc } from '../../../domain/time';
import { appendTimeline, nonRetryable } from './shared';

export interface RecordStatusInput {
  taskId: string;
  authorizationId: string;
  to: PurchaseStatus;
  reasonCode?: string | null;
  detail?: string;
  deviceId?: string;
  orderNo?: string;
  /** set when an operator asked for the change (audit log) */
  actor?: string;
  /** the operator request's update id, kept in the audit row so a retried request finds its answer */
  requestId?: string;
  /** the stop's detail as data (domain/purchase/stop-facts.ts), kept on its timeline entry */
  facts?: unknown;
}

/** How an authorization moves with its task: the state machine's `authorizationBecomes`. */
const AUTHORIZATION_FOR = column('authorizationBecomes');

/** The one writer of a purchase task's state: every move the workflow makes, checked against the state machine. */
export function statusActivities(db: AdminDb) {
  return {
    async recordPurchaseStatus(input: RecordStatusInput): Promise<void> {
      await writeTransaction(db, async (trx) => {
        const task = await trx.selectFrom('tasks').selectAll().where('task_id', '=', input.taskId).executeTakeFirst();
        if (!task || task.task_type !== 'purchase')
          throw nonRetryable(`task ${input.taskId} not found`, 'TASK_NOT_FOUND');
        if (task.authorization_id !== input.authorizationId) {
          // The write back to DRAFT clears the task's authorization: its retry finds it gone.
          if (input.to === 'DRAFT' && (await closedAuthorization(trx, input.authorizationId))) return;
          throw nonRetryable(`task ${input.taskId} belongs to another authorization now`, 'STALE_AUTHORIZATION');
        }
        const from = task.status as PurchaseStatus;
        if (from === input.to) return; // a replayed write
        if (!canTransition(from, input.to))
          throw nonRetryable(`task ${input.taskId}: ${from} → ${input.to} is not allowed`, 'ILLEGAL_TRANSITION');
        const now = nowUtc();
        const reasonCode = await stopReason(trx, input.authorizationId, input.reasonCode);
        await trx
          .updateTable('tasks')
          .set({
            status: input.to,
            version: task.version + 1,
            updated_at: now,
            ...(reasonCode !== undefined ? { reason_code: reasonCode } : {}),
            ...(input.deviceId !== undefined ? { device_id: input.deviceId } : {}),
            ...(input.orderNo !== undefined ? { pdd_order_no: input.orderNo } : {}),
            ...(isTerminal(input.to) ? { finished_at: now } : {}),
            // a task back in DRAFT needs a new authorization: the old one is never revived
            ...(input.to === 'DRAFT' ? { authorization_id: null } : {}),
          })
          .where('task_id', '=', input.taskId)
          .execute();
        const authStatus = AUTHORIZATION_FOR[input.to];
        if (authStatus) {
          await trx
            .updateTable('order_authorizations')
            .set({ status: authStatus, ...(authStatus === 'CLAIMED' ? {} : { closed_at: now }) })
            .where('id', '=', input.authorizationId)
            .where('status', 'not in', AUTHORIZATION_STATES.terminal)
            .execute();
        }
        await appendTimeline(trx, input.authorizationId, {
          at: now,
          status: input.to,
          reason: reasonCode ?? null,
          detail: input.detail ?? null,
          actor: input.actor ?? null,
          ...knownFacts(input.facts),
        });
        if (input.actor) {
          await recordAudit(
            trx,
            { kind: 'operator', name: input.actor },
            {
              action: `task.${input.to.toLowerCase()}`,
              target: { kind: 'task', id: input.taskId },
              details: {
                from,
                to: input.to,
                authorization_id: input.authorizationId,
                ...(input.orderNo ? { pdd_order_no: input.orderNo } : {}),
                ...(input.requestId ? { request_id: input.requestId } : {}),
              },
            },
          );
        }
        recordPurchaseTransition({
          from,
          to: input.to,
          reasonCode,
          startedAt: task.started_at,
          byOperator: input.actor !== undefined,
        });
      });
    },
  };
}

/** The workflow passes on what the phone wrote: a shape this admin does not know is left out. */
function knownFacts(value: unknown): { facts?: StopFacts } {
  const facts = parseStopFacts(value);
  return facts ? { facts } : {};
}

async function closedAuthorization(trx: AdminDb, authorizationId: string): Promise<boolean> {
  const auth = await trx
    .selectFrom('order_authorizations')
    .select('status')
    .where('id', '=', authorizationId)
    .executeTakeFirst();
  return auth?.status === 'EXPIRED' || auth?.status === 'ABANDONED';
}
