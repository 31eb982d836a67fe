import { WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';
import { allowsAction } from '../../domain/purchase/state-machine';
import type { PurchaseStatus } from '../../domain/purchase/status';
import type { ResolveReconciliationInput } from '../../domain/purchase/workflow-types';
import { nowUtc } from '../../domain/time';
import { OPERATOR_UPDATES, type WorkflowAction } from '../../workflows/purchase-messages';
import { recordAudit, type AuditActor } from '../audit/audit';
import { writeTransaction, type AdminDb } from '../db/database';
import { conflict, notFound } from '../http/errors';
import type { TemporalGateway } from '../temporal/gateway';

/**
 * Operator actions on a purchase task. The state machine (domain/purchase/state-machine.ts)
 * refuses an action the task's state does not offer; a task with a running workflow is then
 * changed only through the workflow's update, whose validator asks the same machine and also
 * knows what the state alone does not (cancel after the fence, say). A refused update records
 * nothing; the workflow writes the admin DB and the audit log. A DRAFT has no workflow, so its
 * cancel is a plain guarded write here.
 */
export async function actOnTask(
  deps: { db: AdminDb; temporal: TemporalGateway },
  actor: AuditActor,
  taskId: string,
  action: WorkflowAction,
  payload?: ResolveReconciliationInput,
): Promise<void> {
  const task = await deps.db.selectFrom('tasks').select(['status', 'workflow_id', 'task_type', 'version']).where('task_id', '=', taskId).executeTakeFirst();
  if (!task || task.task_type !== 'purchase') throw notFound('TASK_NOT_FOUND', `no purchase task ${taskId}`);
  const status = task.status as PurchaseStatus;
  if (!allowsAction(status, action)) throw conflict('ACTION_NOT_ALLOWED', `当前状态（${status}）不允许此操作`, { status });

  if (action === 'cancel' && status === 'DRAFT') {
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
  if (!task.workflow_id) throw conflict('ACTION_NOT_ALLOWED', `当前状态（${status}）不允许此操作`, { status });

  const client = await deps.temporal.client();
  const handle = client.workflow.getHandle(task.workflow_id);
  try {
    await handle.executeUpdate(OPERATOR_UPDATES[action], { args: [{ actor: actor.name, ...(payload ?? {}) }] });
  } catch (err) {
    if (err instanceof WorkflowUpdateFailedError) {
      throw conflict('ACTION_NOT_ALLOWED', err.cause?.message ?? err.message, { status });
    }
    if (err instanceof WorkflowNotFoundError) {
      throw conflict('ACTION_NOT_ALLOWED', `任务的工作流已结束，当前状态（${status}）不允许此操作`, { status });
    }
    throw err;
  }
}
