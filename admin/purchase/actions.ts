import { WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';
import type { ResolveReconciliationInput } from '../../domain/purchase/workflow-types';
import { nowUtc } from '../../domain/time';
import { recordAudit, type AuditActor } from '../audit/audit';
import { writeTransaction, type AdminDb } from '../db/database';
import { conflict, notFound } from '../http/errors';
import type { TemporalGateway } from '../temporal/gateway';

export type OperatorAction = 'cancel' | 'reset' | 'markPaid' | 'resolveReconciliation';

/**
 * Operator actions on a purchase task. A task with a running workflow is changed only through
 * the workflow's updates, whose validators refuse wrong-state calls before anything is
 * recorded (cancel after the fence, say); the workflow writes the admin DB and the audit log.
 * A DRAFT has no workflow, so its cancel is a plain guarded write here.
 */
export async function actOnTask(
  deps: { db: AdminDb; temporal: TemporalGateway },
  actor: AuditActor,
  taskId: string,
  action: OperatorAction,
  payload?: ResolveReconciliationInput,
): Promise<void> {
  const task = await deps.db.selectFrom('tasks').select(['status', 'workflow_id', 'task_type', 'version']).where('task_id', '=', taskId).executeTakeFirst();
  if (!task || task.task_type !== 'purchase') throw notFound('TASK_NOT_FOUND', `no purchase task ${taskId}`);

  if (action === 'cancel' && task.status === 'DRAFT') {
    await writeTransaction(deps.db, async (trx) => {
      const r = await trx
        .updateTable('tasks')
        .set({ status: 'CANCELED', version: task.version + 1, updated_at: nowUtc(), finished_at: nowUtc(), reason_code: 'CANCELED_BY_OPERATOR' })
        .where('task_id', '=', taskId)
        .where('status', '=', 'DRAFT')
        .executeTakeFirst();
      if (r.numUpdatedRows !== 1n) throw conflict('STATE_CHANGED', '任务状态已变化，请刷新');
      await recordAudit(trx, actor, { action: 'task.canceled', target: { kind: 'task', id: taskId }, details: { from: 'DRAFT' } });
    });
    return;
  }
  if (!task.workflow_id) throw conflict('ACTION_NOT_ALLOWED', `当前状态（${task.status}）不允许此操作`);

  const client = await deps.temporal.client();
  const handle = client.workflow.getHandle(task.workflow_id);
  try {
    await handle.executeUpdate(action, { args: [{ actor: actor.name, ...(payload ?? {}) }] });
  } catch (err) {
    if (err instanceof WorkflowUpdateFailedError) {
      throw conflict('ACTION_NOT_ALLOWED', err.cause?.message ?? err.message, { status: task.status });
    }
    if (err instanceof WorkflowNotFoundError) {
      throw conflict('ACTION_NOT_ALLOWED', `任务的工作流已结束，当前状态（${task.status}）不允许此操作`, { status: task.status });
    }
    throw err;
  }
}
