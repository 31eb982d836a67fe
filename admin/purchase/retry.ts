import { conflict, notFound } from '../../domain/api-error';
import type { AuditActor } from '../audit/audit';
import type { AdminDb } from '../db/database';
import type { TemporalGateway } from '../temporal/gateway';
import type { Logger } from '../../platform/logger';
import { actOnTask } from './actions';
import { startPurchases } from './start';
import type { StartedTask } from './authorize';

/**
 * 从停止处重试 (docs/api.md §12.3): a purchase that stopped before its tap (需人工处理: nothing was
 * submitted) is bought again once the person has cleared what stopped it — one click for what an
 * operator did in two: 重置为草稿, which abandons the old authorization through the workflow, then
 * 开始采购 with the same cap, a new authorization and a new workflow. Each step is its own audited
 * action; a start the admin refuses (a cap over the limit since) leaves the task a draft, as a
 * reset would.
 */
export async function retryFromStop(
  deps: { db: AdminDb; temporal: TemporalGateway; log: Logger },
  actor: AuditActor,
  taskId: string,
  idempotencyKey: string | undefined,
): Promise<StartedTask> {
  const task = await deps.db.selectFrom('tasks').select(['status']).where('task_id', '=', taskId).executeTakeFirst();
  if (!task) throw notFound('TASK_NOT_FOUND', `no task ${taskId}`);
  if (task.status !== 'NEEDS_MANUAL')
    throw conflict(
      'ACTION_NOT_ALLOWED',
      `only a purchase stopped before its tap (NEEDS_MANUAL) is retried; ${taskId} is ${task.status}`,
    );
  const reset = await actOnTask(deps, actor, taskId, 'reset', undefined, idempotencyKey);
  if (reset === 'pending')
    throw conflict('UPDATE_PENDING', 'the workflow did not finish the reset in time; retry again to see its outcome');
  const now = await deps.db
    .selectFrom('tasks')
    .select(['status', 'version'])
    .where('task_id', '=', taskId)
    .executeTakeFirstOrThrow();
  if (now.status !== 'DRAFT')
    throw conflict('ACTION_NOT_ALLOWED', `${taskId} is ${now.status} after the reset, not a draft`);
  const [started] = await startPurchases(deps, actor, [{ task_id: taskId, version: now.version }]);
  if (!started) throw conflict('ACTION_NOT_ALLOWED', `${taskId} was not started`);
  return started;
}
