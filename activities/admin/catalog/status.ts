import { writeTransaction, type AdminDb } from '../../../admin/db/database';
import { nowUtc } from '../../../domain/time';
import { ensureTask, ownsProduct, TERMINAL } from './run';

export interface MarkCollectingInput {
  pddGoodsId: string;
  workflowId: string;
  deviceId: string;
}

export interface MarkCollectFailedInput {
  pddGoodsId: string;
  workflowId: string;
  code: string;
  message: string;
  artifactPath?: string | null;
}

/** A phone took the collect: status collecting, and which device ran which task. */
export async function markCollecting(db: AdminDb, runId: string, input: MarkCollectingInput): Promise<void> {
  await writeTransaction(db, async (trx) => {
    const task = await ensureTask(trx, input.pddGoodsId, input.workflowId, runId);
    if (TERMINAL.has(task.status)) return;
    const now = nowUtc();
    await trx
      .updateTable('tasks')
      .set({ status: 'collecting', device_id: input.deviceId, updated_at: now })
      .where('task_id', '=', task.task_id)
      .execute();
    await trx
      .insertInto('task_claims')
      .values({ task_id: task.task_id, device_id: input.deviceId, claimed_at: now })
      .onConflict((oc) => oc.columns(['task_id', 'device_id']).doUpdateSet({ claimed_at: now }))
      .execute();
    if (await ownsProduct(trx, input.pddGoodsId, task)) {
      await trx
        .updateTable('pdd_products')
        .set({
          collect_status: 'collecting',
          collect_workflow_id: input.workflowId,
          collect_run_id: runId,
          collect_device_id: input.deviceId,
          updated_at: now,
        })
        .where('goods_id', '=', input.pddGoodsId)
        .execute();
    }
  });
}

/** Any other failure: the operator sees the reason and where the artifacts are. */
export async function markCollectFailed(db: AdminDb, runId: string, input: MarkCollectFailedInput): Promise<void> {
  await writeTransaction(db, async (trx) => {
    const task = await ensureTask(trx, input.pddGoodsId, input.workflowId, runId);
    if (TERMINAL.has(task.status)) return; // the first recorded outcome stands
    const now = nowUtc();
    const artifact = input.artifactPath
      ? task.device_id
        ? `${task.device_id}:${input.artifactPath}`
        : input.artifactPath
      : null;
    await trx
      .updateTable('tasks')
      .set({
        status: 'failed',
        error_code: input.code,
        error_message: input.message,
        artifact_ref: artifact,
        finished_at: now,
        updated_at: now,
      })
      .where('task_id', '=', task.task_id)
      .execute();
    if (await ownsProduct(trx, input.pddGoodsId, task)) {
      await trx
        .updateTable('pdd_products')
        .set({
          collect_status: 'failed',
          collect_code: input.code,
          collect_msg: input.message,
          artifact_ref: artifact,
          collect_run_id: runId,
          collect_workflow_id: input.workflowId,
          updated_at: now,
        })
        .where('goods_id', '=', input.pddGoodsId)
        .execute();
    }
  });
}
