import { WorkflowNotFoundError } from '@temporalio/client';
import { sql } from 'kysely';
import { ATTEMPT_FOR_SUBMISSION, AUTHORIZATION_STATES } from '../../domain/purchase/record-states';
import { expectsOpenWorkflow, repairedStatus, type RepairAction } from '../../domain/purchase/repair-rules';
import { isTerminal, type PurchaseStatus } from '../../domain/purchase/state-machine';
import type { ResolveReconciliationInput } from '../../domain/purchase/workflow-types';
import { nowUtc } from '../../domain/time';
import { recordAudit, type AuditActor } from '../audit/audit';
import { writeTransaction, type AdminDb } from '../db/database';
import { conflict } from '../../domain/api-error';
import type { TemporalGateway } from '../temporal/gateway';

/** How long a task read waits for Temporal to say whether the task's workflow is still open. */
const DESCRIBE_DEADLINE_MS = 2_000;

/**
 * The task's workflow is closed (terminated or timed out by hand, or gone with the retention)
 * while the task is neither DRAFT nor terminal: nothing will move it any more but the operator's
 * repair. Answers the workflow's status then, null when it is running, when the task needs no
 * workflow, or when Temporal cannot tell right now (a task read never fails on it).
 */
export async function closedWorkflowOf(
  temporal: TemporalGateway,
  task: { status: string; workflow_id: string | null },
): Promise<string | null> {
  if (!task.workflow_id || !expectsOpenWorkflow(task.status)) return null;
  try {
    const client = await temporal.client();
    const desc = await client.withDeadline(Date.now() + DESCRIBE_DEADLINE_MS, () =>
      client.workflow.getHandle(task.workflow_id as string).describe(),
    );
    return desc.status.name === 'RUNNING' ? null : desc.status.name;
  } catch (err) {
    return err instanceof WorkflowNotFoundError ? 'NOT_FOUND' : null;
  }
}

export type RepairAnswer =
  | { action: 'resolve'; resolution: ResolveReconciliationInput }
  | { action: 'mark-paid' }
  | { action: 'reset' }
  | { action: 'cancel' };

/** The domain's name of an answer (domain/purchase/repair-rules.ts). */
function repairAction(answer: RepairAnswer): RepairAction {
  if (answer.action !== 'resolve') return answer.action;
  return answer.resolution.outcome === 'created' ? 'resolve-created' : 'resolve-not-created';
}

/**
 * The operator settles a task whose workflow is closed (closedWorkflowOf), in one transaction
 * with its audit row. The rules are domain/purchase/repair-rules.ts `repairedStatus`: an authorization that
 * reached its fence (an `order_submissions` row, tapped or not) never buys again. 标记已付款 of a
 * 待付款 task is the same as the workflow would have done.
 */
export async function repairClosedTask(
  db: AdminDb,
  actor: AuditActor,
  taskId: string,
  workflowStatus: string,
  answer: RepairAnswer,
  requestId: string,
): Promise<PurchaseStatus> {
  return writeTransaction(db, async (trx) => {
    const task = await trx
      .selectFrom('tasks')
      .select(['status', 'version', 'authorization_id'])
      .where('task_id', '=', taskId)
      .executeTakeFirstOrThrow();
    const from = task.status as PurchaseStatus;
    const authId = task.authorization_id;
    const submission = authId
      ? await trx
          .selectFrom('order_submissions')
          .select(['id', 'attempt_id'])
          .where('authorization_id', '=', authId)
          .executeTakeFirst()
      : undefined;
    const to = repairedStatus(from, repairAction(answer), submission !== undefined);
    if (!to) {
      const why =
        answer.action === 'resolve' && answer.resolution.outcome === 'created' && !submission
          ? '该授权没有到达提交围栏，不可能已下单；请选择「未下单」'
          : `当前状态（${from}）不允许此操作`;
      throw conflict('ACTION_NOT_ALLOWED', why, { status: from });
    }
    const pddOrderNo =
      answer.action === 'resolve' && answer.resolution.outcome === 'created' ? answer.resolution.orderNo : null;
    const repair: Repair = { trx, to, now: nowUtc(), answer, pddOrderNo };
    await moveTask(repair, taskId, task.version);
    if (authId) await settleAuthorization(repair, authId, submission?.id ?? null, actor.name, workflowStatus);
    await recordAudit(trx, actor, {
      action: 'task.repaired',
      target: { kind: 'task', id: taskId },
      details: {
        from,
        to,
        workflow_status: workflowStatus,
        authorization_id: authId,
        reached_fence: submission !== undefined,
        outcome:
          answer.action === 'resolve'
            ? answer.resolution.outcome
            : answer.action === 'mark-paid'
              ? 'paid'
              : answer.action,
        ...(pddOrderNo ? { pdd_order_no: pddOrderNo } : {}),
        request_id: requestId,
      },
    });
    return to;
  });
}

/** One repair inside its transaction: the state it moves to, when, on which answer. */
interface Repair {
  trx: AdminDb;
  to: PurchaseStatus;
  now: string;
  answer: RepairAnswer;
  /** the PDD order number the operator entered for 已下单 */
  pddOrderNo: string | null;
}

async function moveTask({ trx, to, now, pddOrderNo }: Repair, taskId: string, version: number): Promise<void> {
  const r = await trx
    .updateTable('tasks')
    .set({
      status: to,
      version: version + 1,
      updated_at: now,
      ...(pddOrderNo ? { pdd_order_no: pddOrderNo } : {}),
      ...(isTerminal(to) ? { finished_at: now } : {}),
      ...(to === 'CANCELED' ? { reason_code: 'CANCELED_BY_OPERATOR' } : {}),
      // back in DRAFT: a new start takes a new authorization; the old one is never revived
      ...(to === 'DRAFT' ? { authorization_id: null, reason_code: null } : {}),
    })
    .where('task_id', '=', taskId)
    .where('version', '=', version)
    .executeTakeFirst();
  if (r.numUpdatedRows !== 1n) throw conflict('STATE_CHANGED', '任务状态已变化，请刷新');
}

/** The task's authorization closes, its submission takes the operator's answer, its attempt records the repair. */
async function settleAuthorization(
  { trx, to, now, answer, pddOrderNo }: Repair,
  authId: string,
  submissionId: string | null,
  actorName: string,
  workflowStatus: string,
): Promise<void> {
  await trx
    .updateTable('order_authorizations')
    .set({ status: to === 'DRAFT' || to === 'CANCELED' ? 'ABANDONED' : 'CONSUMED', closed_at: now })
    .where('id', '=', authId)
    .where('status', 'not in', AUTHORIZATION_STATES.terminal)
    .execute();
  if (submissionId !== null && answer.action === 'resolve') {
    await trx
      .updateTable('order_submissions')
      .set({ status: 'MANUAL_RESOLVED', resolved_at: now, ...(pddOrderNo ? { pdd_order_no: pddOrderNo } : {}) })
      .where('id', '=', submissionId)
      .execute();
  }
  const attempt = await trx
    .selectFrom('purchase_attempts')
    .select(['id', 'timeline_json'])
    .where('authorization_id', '=', authId)
    .executeTakeFirst();
  if (!attempt) return;
  const timeline = JSON.parse(attempt.timeline_json) as unknown[];
  timeline.push({
    at: now,
    status: to,
    reason: null,
    detail: `repaired by the operator: workflow ${workflowStatus}`,
    actor: actorName,
  });
  await trx
    .updateTable('purchase_attempts')
    .set({
      timeline_json: JSON.stringify(timeline),
      ...(answer.action === 'resolve'
        ? {
            status: submissionId !== null ? ATTEMPT_FOR_SUBMISSION.MANUAL_RESOLVED : 'STOPPED',
            finished_at: sql<string>`coalesce(finished_at, ${now})`,
          }
        : {}),
    })
    .where('id', '=', attempt.id)
    .execute();
}
