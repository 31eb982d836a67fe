import {
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
  WorkflowUpdateRPCTimeoutOrCancelledError,
} from '@temporalio/client';
import { sql } from 'kysely';
import { allowsAction } from '../../domain/purchase/state-machine';
import type { PurchaseStatus } from '../../domain/purchase/status';
import type { ResolveReconciliationInput } from '../../domain/purchase/workflow-types';
import { nowUtc } from '../../domain/time';
import { OPERATOR_UPDATES, type WorkflowAction } from '../../workflows/purchase-messages';
import { recordAudit, type AuditActor } from '../audit/audit';
import { writeTransaction, type AdminDb } from '../db/database';
import { conflict, notFound } from '../http/errors';
import type { TemporalGateway } from '../temporal/gateway';
import { closedWorkflowOf, repairClosedTask } from './repair';

/** How long an operator's request waits for the workflow's answer before it says "still running". */
const UPDATE_DEADLINE_MS = 15_000;

/**
 * `done`: the action happened (now, or by an earlier request with the same id — its answer is
 * the same). `pending`: the workflow accepted nothing yet or did not answer within the deadline;
 * the same request again attaches to the same update and never acts twice.
 */
export type ActionOutcome = 'done' | 'pending';

/**
 * Operator actions on a purchase task. The state machine (domain/purchase/state-machine.ts)
 * refuses an action the task's state does not offer; a task with a running workflow is then
 * changed only through the workflow's update, whose validator asks the same machine and also
 * knows what the state alone does not (cancel after the fence, say). A refused update records
 * nothing; the workflow writes the admin DB and the audit log. A DRAFT has no workflow, so its
 * cancel is a plain guarded write here; a task whose workflow was closed by hand is settled here
 * too (./repair.ts).
 *
 * Every request carries an update id: the client's `Idempotency-Key`, or else the task version
 * it acts on. Temporal runs one update per id, and the audit row the action wrote keeps it, so a
 * retried 标记已付款 gets the first request's answer instead of a second transition or a refusal.
 */
export async function actOnTask(
  deps: { db: AdminDb; temporal: TemporalGateway; updateDeadlineMs?: number },
  actor: AuditActor,
  taskId: string,
  action: WorkflowAction,
  payload?: ResolveReconciliationInput,
  idempotencyKey?: string,
): Promise<ActionOutcome> {
  const task = await deps.db
    .selectFrom('tasks')
    .select(['status', 'workflow_id', 'task_type', 'version'])
    .where('task_id', '=', taskId)
    .executeTakeFirst();
  if (!task || task.task_type !== 'purchase') throw notFound('TASK_NOT_FOUND', `no purchase task ${taskId}`);
  const requestId = `${taskId}/${action}/${idempotencyKey ?? `v${task.version}`}`;
  if (await alreadyDone(deps.db, taskId, requestId)) return 'done';
  const status = task.status as PurchaseStatus;

  if (action === 'resolve' || action === 'mark-paid') {
    const closed = await closedWorkflowOf(deps.temporal, task);
    if (closed) {
      await repairClosedTask(
        deps.db,
        actor,
        taskId,
        closed,
        action === 'resolve' ? { action, resolution: payload as ResolveReconciliationInput } : { action },
        requestId,
      );
      return 'done';
    }
  }
  if (!allowsAction(status, action))
    throw conflict('ACTION_NOT_ALLOWED', `当前状态（${status}）不允许此操作`, { status });

  if (action === 'cancel' && status === 'DRAFT') {
    await writeTransaction(deps.db, async (trx) => {
      const r = await trx
        .updateTable('tasks')
        .set({
          status: 'CANCELED',
          version: task.version + 1,
          updated_at: nowUtc(),
          finished_at: nowUtc(),
          reason_code: 'CANCELED_BY_OPERATOR',
        })
        .where('task_id', '=', taskId)
        .where('status', '=', 'DRAFT')
        .executeTakeFirst();
      if (r.numUpdatedRows !== 1n) throw conflict('STATE_CHANGED', '任务状态已变化，请刷新');
      await recordAudit(trx, actor, {
        action: 'task.canceled',
        target: { kind: 'task', id: taskId },
        details: { from: 'DRAFT', request_id: requestId },
      });
    });
    return 'done';
  }
  if (!task.workflow_id) throw conflict('ACTION_NOT_ALLOWED', `当前状态（${status}）不允许此操作`, { status });

  const client = await deps.temporal.client();
  const handle = client.workflow.getHandle(task.workflow_id);
  const deadline = Date.now() + (deps.updateDeadlineMs ?? UPDATE_DEADLINE_MS);
  try {
    await client.withDeadline(deadline, () =>
      handle.executeUpdate(OPERATOR_UPDATES[action], {
        updateId: requestId,
        args: [{ actor: actor.name, requestId, ...(payload ?? {}) }],
      }),
    );
    return 'done';
  } catch (err) {
    if (err instanceof WorkflowUpdateFailedError) {
      throw conflict('ACTION_NOT_ALLOWED', err.cause?.message ?? err.message, { status });
    }
    if (err instanceof WorkflowNotFoundError) {
      throw conflict('ACTION_NOT_ALLOWED', `任务的工作流已结束，当前状态（${status}）不允许此操作`, { status });
    }
    if (err instanceof WorkflowUpdateRPCTimeoutOrCancelledError || isDeadlineExceeded(err)) return 'pending';
    throw err;
  }
}

/** An audit row this request id wrote: the action already happened for it. */
async function alreadyDone(db: AdminDb, taskId: string, requestId: string): Promise<boolean> {
  const row = await db
    .selectFrom('audit_log')
    .select('id')
    .where('target_kind', '=', 'task')
    .where('target_id', '=', taskId)
    .where(sql<string>`json_extract(details_json, '$.request_id')`, '=', requestId)
    .executeTakeFirst();
  return row !== undefined;
}

function isDeadlineExceeded(err: unknown): boolean {
  // gRPC DEADLINE_EXCEEDED (4) on the update call itself
  const e = err as { code?: unknown; cause?: { code?: unknown } } | null;
  return e?.code === 4 || e?.cause?.code === 4;
}
