import {
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
  WorkflowUpdateRPCTimeoutOrCancelledError,
} from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { allowsAction } from '../../domain/purchase/state-machine';
import type { PurchaseStatus } from '../../domain/purchase/status';
import type { OperatorAnswer, ResolveReconciliationInput } from '../../domain/purchase/workflow-types';
import { nowUtc } from '../../domain/time';
import { OPERATOR_UPDATES, type WorkflowAction } from '../../domain/contracts/purchase-messages';
import { recordAudit, type AuditActor } from '../audit/audit';
import { writeTransaction, type AdminDb } from '../db/database';
import { ApiError, conflict, notFound } from '../../domain/api-error';
import type { TemporalGateway } from '../temporal/gateway';
import {
  bodyDigest,
  earlierAnswer,
  requestIdOf,
  statusOf,
  unchangedAudit,
  type UnchangedAudit,
} from './operator-requests';
import { closedWorkflowOf, repairClosedTask } from './repair';

/** How long an operator's request waits for the workflow's answer before it says "still running". */
const UPDATE_DEADLINE_MS = 15_000;

/**
 * An OperatorAnswer: `applied` — the change happened (now, or by an earlier request with the same
 * id) and `status` is what it wrote; `superseded` — the workflow got there first and `status` is
 * the state that won. `pending`: the workflow did not answer within the deadline; the same request
 * again attaches to the same update and never acts twice.
 */
export type ActionOutcome = OperatorAnswer | 'pending';

type Deps = { db: AdminDb; temporal: TemporalGateway; updateDeadlineMs?: number };

/**
 * Operator actions on a purchase task. The state machine (domain/purchase/state-machine.ts)
 * refuses an action the task's state does not offer; a task with a running workflow is then
 * changed only through the workflow's update, whose validator asks the same machine and also
 * knows what the state alone does not (cancel after the fence, say). The update writes the change
 * (with its audit row) before it answers, so the answer carries the new state; a write that fails
 * for good fails the update with its reason (409 OPERATOR_WRITE_FAILED, nothing changed). A DRAFT
 * has no workflow, so its cancel is a plain guarded write here; a task whose workflow is closed is
 * settled here too (./repair.ts).
 *
 * Every request leaves an audit row: `task.request` when it arrives (with a digest of its body),
 * then the change's own row, or one saying it was refused, superseded or failed. Its update id is
 * the client's `Idempotency-Key`, or else the task version it acts on (with the body's digest, and
 * a new suffix after a failed write so asking again is a new request). Temporal runs one update
 * per id, so a retried 标记已付款 gets the first request's answer; a key reused with another body
 * is refused (422 IDEMPOTENCY_KEY_REUSED).
 */
export async function actOnTask(
  deps: Deps,
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
  const digest = bodyDigest(action, payload);
  const requestId = await requestIdOf(deps.db, taskId, action, digest, task.version, idempotencyKey);
  const status = task.status as PurchaseStatus;
  const audit = unchangedAudit(deps.db, actor, taskId, action, requestId);

  const earlier = await earlierAnswer(deps.db, taskId, requestId);
  if (earlier) return earlier;
  await audit('received', { body_sha256: digest, status, ...(payload ? { body: payload } : {}) });

  try {
    const closed = await closedWorkflowOf(deps.temporal, task);
    if (closed) {
      const to = await repairClosedTask(
        deps.db,
        actor,
        taskId,
        closed,
        action === 'resolve' ? { action, resolution: payload as ResolveReconciliationInput } : { action },
        requestId,
      );
      return { result: 'applied', status: to };
    }
    if (!allowsAction(status, action))
      throw conflict('ACTION_NOT_ALLOWED', `当前状态（${status}）不允许此操作`, { status });

    if (action === 'cancel' && status === 'DRAFT') {
      await cancelDraft(deps.db, actor, taskId, task.version, requestId);
      return { result: 'applied', status: 'CANCELED' };
    }
    if (!task.workflow_id) throw conflict('ACTION_NOT_ALLOWED', `当前状态（${status}）不允许此操作`, { status });
    return await sendUpdate(deps, task.workflow_id, { actor, taskId, action, payload, requestId, status }, audit);
  } catch (err) {
    if (isRefusal(err)) await audit('refused', { code: err.code, reason: err.message });
    throw err;
  }
}

/**
 * The action as the workflow's update, under the request's id, waiting at most the deadline; the
 * workflow's refusal is this request's refusal, and a write it could not make is said so.
 */
async function sendUpdate(
  deps: Deps,
  workflowId: string,
  request: {
    actor: AuditActor;
    taskId: string;
    action: WorkflowAction;
    payload: ResolveReconciliationInput | undefined;
    requestId: string;
    status: PurchaseStatus;
  },
  audit: UnchangedAudit,
): Promise<ActionOutcome> {
  const { actor, action, payload, requestId, status } = request;
  const client = await deps.temporal.client();
  const handle = client.workflow.getHandle(workflowId);
  const deadline = Date.now() + (deps.updateDeadlineMs ?? UPDATE_DEADLINE_MS);
  let answer: OperatorAnswer | null;
  try {
    answer = await client.withDeadline(deadline, () =>
      handle.executeUpdate(OPERATOR_UPDATES[action], {
        updateId: requestId,
        args: [{ actor: actor.name, requestId, ...(payload ?? {}) }],
      }),
    );
  } catch (err) {
    if (err instanceof WorkflowUpdateFailedError) {
      const cause = err.cause;
      if (cause instanceof ApplicationFailure && cause.type === 'OPERATOR_WRITE_FAILED') {
        await audit('failed', { reason: cause.message });
        throw conflict('OPERATOR_WRITE_FAILED', cause.message, { status });
      }
      throw conflict('ACTION_NOT_ALLOWED', cause?.message ?? err.message, { status });
    }
    if (err instanceof WorkflowNotFoundError)
      throw conflict('ACTION_NOT_ALLOWED', `任务的工作流已结束，当前状态（${status}）不允许此操作`, { status });
    if (err instanceof WorkflowUpdateRPCTimeoutOrCancelledError || isDeadlineExceeded(err)) return 'pending';
    throw err;
  }
  // an update accepted by code from before it answered anything: the change is the new state
  const outcome = answer ?? { result: 'applied' as const, status: await statusOf(deps.db, request.taskId) };
  if (outcome.result === 'superseded') await audit('superseded', { status: outcome.status });
  return outcome;
}

async function cancelDraft(
  db: AdminDb,
  actor: AuditActor,
  taskId: string,
  version: number,
  requestId: string,
): Promise<void> {
  await writeTransaction(db, async (trx) => {
    const r = await trx
      .updateTable('tasks')
      .set({
        status: 'CANCELED',
        version: version + 1,
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
}

function isRefusal(err: unknown): err is ApiError {
  return err instanceof ApiError && err.kind === 'conflict' && err.code !== 'OPERATOR_WRITE_FAILED';
}

function isDeadlineExceeded(err: unknown): boolean {
  // gRPC DEADLINE_EXCEEDED (4) on the update call itself
  const e = err as { code?: unknown; cause?: { code?: unknown } } | null;
  return e?.code === 4 || e?.cause?.code === 4;
}
