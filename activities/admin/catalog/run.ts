import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { Selectable } from 'kysely';
import type { AdminDb } from '../../../admin/db/database';
import type { TasksTable } from '../../../admin/db/tables/catalog';
import { collectTaskId, insertCollectTask } from '../../../admin/catalog/collect-task';

/**
 * One collect run as the admin records it: its `tasks` row, whose outcome is written once, and
 * its right to write the goods' collect status.
 */
export type CollectTask = Selectable<TasksTable>;

export type CollectOutcome = { status: 'collected'; skus: number };

/** A run whose row is in one of these has its outcome: a retry (or a late duplicate) changes nothing. */
export const TERMINAL = new Set(['succeeded', 'failed', 'rejected']);

/** The run id comes from the activity context; outside one (unit tests) the caller passes it. */
export function currentRunId(fallback?: string): string {
  let runId: string | undefined;
  try {
    runId = Context.current().info.workflowExecution?.runId;
  } catch {
    runId = undefined;
  }
  runId = runId ?? fallback;
  if (!runId) throw new Error('no activity context and no run id');
  return runId;
}

export async function ensureTask(
  trx: AdminDb,
  pddGoodsId: string,
  workflowId: string,
  runId: string,
): Promise<CollectTask> {
  const taskId = collectTaskId(workflowId, runId);
  await insertCollectTask(trx, { pddGoodsId, workflowId, runId });
  return trx.selectFrom('tasks').selectAll().where('task_id', '=', taskId).executeTakeFirstOrThrow();
}

/**
 * May this run write the goods' status? Yes when the goods has no run or this one; and when it
 * names another run, only if that run is not newer than this one (a late activity of an old,
 * timed-out run never overwrites a newer collect).
 */
export async function ownsProduct(trx: AdminDb, pddGoodsId: string, task: CollectTask): Promise<boolean> {
  const p = await trx
    .selectFrom('pdd_products')
    .select(['collect_run_id', 'deleted_at'])
    .where('goods_id', '=', pddGoodsId)
    .executeTakeFirst();
  if (!p || p.deleted_at !== null) return false;
  if (p.collect_run_id === null || p.collect_run_id === task.run_id) return true;
  const other = await trx
    .selectFrom('tasks')
    .select(['created_at'])
    .where('task_id', '=', collectTaskId(task.workflow_id ?? '', p.collect_run_id))
    .executeTakeFirst();
  return !other || other.created_at <= task.created_at;
}

/** The outcome a finished run already recorded, answered again (a failure as the same failure). */
export function replayOutcome(task: CollectTask): CollectOutcome {
  if (task.status === 'succeeded') {
    const skus = task.result_data
      ? ((JSON.parse(task.result_data) as { result?: { skus?: unknown[] } }).result?.skus?.length ?? 0)
      : 0;
    return { status: 'collected', skus };
  }
  throw ApplicationFailure.nonRetryable(task.error_message ?? 'collect failed', task.error_code ?? 'COLLECT_FAILED');
}
