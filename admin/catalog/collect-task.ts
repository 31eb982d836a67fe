import { canonicalPddGoodsUrl } from '../../domain/pdd-url';
import { nowUtc } from '../../domain/time';
import type { AdminDb } from '../db/database';

/** The task row of one collect run (workflow `collect/<goods>` has one run id per start). */
export function collectTaskId(workflowId: string, runId: string): string {
  return `${workflowId}/${runId}`;
}

/**
 * Writes the `tasks` row of one collect run, once: the route that starts the run and the run's
 * own first activity both call it, and whichever comes second changes nothing. True when this
 * call wrote it.
 */
export async function insertCollectTask(
  trx: AdminDb,
  run: { pddGoodsId: string; workflowId: string; runId: string },
): Promise<boolean> {
  const now = nowUtc();
  const inserted = await trx
    .insertInto('tasks')
    .values({
      task_id: collectTaskId(run.workflowId, run.runId),
      task_type: 'collect',
      status: 'queued',
      workflow_id: run.workflowId,
      run_id: run.runId,
      pdd_goods_url: canonicalPddGoodsUrl(run.pddGoodsId),
      pdd_goods_id: run.pddGoodsId,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.column('task_id').doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
}
