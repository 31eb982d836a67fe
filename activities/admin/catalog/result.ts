import { ApplicationFailure } from '@temporalio/common';
import { writeTransaction, type AdminDb } from '../../../admin/db/database';
import { searchTextOf } from '../../../domain/catalog-search';
import { skusJsonSchema, type SkusJson } from '../../../domain/collect';
import { nowUtc } from '../../../domain/time';
import { deviceStatus } from '../purchase/shared';
import { ensureTask, ownsProduct, replayOutcome, TERMINAL, type CollectOutcome, type CollectTask } from './run';

export interface SaveCollectResultInput {
  pddGoodsId: string;
  workflowId: string;
  deviceId: string;
  result: SkusJson;
  /** whatever the phone counted (screens, retries…); kept with the task, not interpreted */
  counters?: Record<string, unknown>;
}

interface Refusal {
  code: string;
  message: string;
  taskStatus: 'failed' | 'rejected';
}

/** What one transaction of saveCollectResult writes with: the run's row and whether it owns the goods. */
interface Write {
  trx: AdminDb;
  task: CollectTask;
  input: SaveCollectResultInput;
  runId: string;
  now: string;
  /** the full submission, kept in the task whatever the verdict, except from a revoked phone (null) */
  resultData: string | null;
  owns: boolean;
}

/**
 * The collected goods_id must be the requested one, else reject
 * (COLLECT_GOODS_MISMATCH, non-retryable) and keep the previous data; zero SKUs is a
 * failure (COLLECT_NO_SKUS), never "collected". The full submission is kept in the task. A phone
 * revoked while it collected (DEVICE_REVOKED) stores nothing: neither the SKUs nor its submission.
 */
export async function saveCollectResult(
  db: AdminDb,
  runId: string,
  input: SaveCollectResultInput,
): Promise<CollectOutcome> {
  const parsed = skusJsonSchema.safeParse(input.result);
  const outcome = await writeTransaction(
    db,
    async (trx): Promise<{ ok: CollectOutcome } | { fail: { code: string; message: string } }> => {
      const task = await ensureTask(trx, input.pddGoodsId, input.workflowId, runId);
      if (TERMINAL.has(task.status)) return replayed(task);
      const resultData = JSON.stringify({
        device_id: input.deviceId,
        counters: input.counters ?? {},
        result: input.result,
      });
      // the device's credential as it is now, in the transaction that would store what it read
      const revoked = (await deviceStatus(trx, input.deviceId)) === 'REVOKED';
      const fail = revoked ? revokedRefusal(input.deviceId) : refusalOf(parsed, input.pddGoodsId);
      const owns = await ownsProduct(trx, input.pddGoodsId, task);
      const write: Write = { trx, task, input, runId, now: nowUtc(), resultData: revoked ? null : resultData, owns };
      if (fail) {
        await recordRefusal(write, fail);
        return { fail };
      }
      const data = parsed.data as SkusJson;
      await recordCollected(write, data);
      return { ok: { status: 'collected', skus: data.skus.length } };
    },
  );
  if ('fail' in outcome) throw ApplicationFailure.nonRetryable(outcome.fail.message, outcome.fail.code);
  return outcome.ok;
}

function replayed(task: CollectTask): { ok: CollectOutcome } | { fail: { code: string; message: string } } {
  try {
    return { ok: replayOutcome(task) };
  } catch (err) {
    const f = err as ApplicationFailure;
    return { fail: { code: f.type ?? 'COLLECT_FAILED', message: f.message } };
  }
}

function revokedRefusal(deviceId: string): Refusal {
  return {
    code: 'DEVICE_REVOKED',
    message: `采集所用的手机（${deviceId}）在采集中被停用，结果未保存，原数据保留`,
    taskStatus: 'failed',
  };
}

function refusalOf(parsed: ReturnType<typeof skusJsonSchema.safeParse>, pddGoodsId: string): Refusal | null {
  if (!parsed.success)
    return {
      code: 'COLLECT_RESULT_INVALID',
      message: `采集结果格式不对：${parsed.error.issues.map((i) => i.path.join('.')).join(', ')}`,
      taskStatus: 'rejected',
    };
  if (parsed.data.goods_id !== pddGoodsId)
    return {
      code: 'COLLECT_GOODS_MISMATCH',
      message: `采集到的商品 ${parsed.data.goods_id} 不是要采集的 ${pddGoodsId}（链接跳转或采错商品），已拒绝，原数据保留`,
      taskStatus: 'rejected',
    };
  if (parsed.data.skus.length === 0)
    return {
      code: 'COLLECT_NO_SKUS',
      message: '采集到 0 个规格（商品下架、页面改版或没有识别出规格），原数据保留',
      taskStatus: 'failed',
    };
  return null;
}

/** The run's outcome, written once: its status, its reason (none when collected) and the full submission. */
async function finishTask(
  { trx, task, input, now, resultData }: Write,
  status: 'succeeded' | Refusal['taskStatus'],
  reason: { code: string; message: string } | null,
): Promise<void> {
  await trx
    .updateTable('tasks')
    .set({
      status,
      device_id: input.deviceId,
      error_code: reason?.code ?? null,
      error_message: reason?.message ?? null,
      result_data: resultData,
      finished_at: now,
      updated_at: now,
    })
    .where('task_id', '=', task.task_id)
    .execute();
}

async function recordRefusal(write: Write, fail: Refusal): Promise<void> {
  const { trx, input, runId, now, owns } = write;
  await finishTask(write, fail.taskStatus, fail);
  if (!owns) return;
  // only the status and the reason change: skus_json, title and collected_at stay
  await trx
    .updateTable('pdd_products')
    .set({
      collect_status: 'failed',
      collect_code: fail.code,
      collect_msg: fail.message,
      collect_run_id: runId,
      collect_workflow_id: input.workflowId,
      updated_at: now,
    })
    .where('goods_id', '=', input.pddGoodsId)
    .execute();
}

async function recordCollected(write: Write, data: SkusJson): Promise<void> {
  const { trx, input, runId, now, owns } = write;
  await finishTask(write, 'succeeded', null);
  if (!owns) return;
  await trx
    .updateTable('pdd_products')
    .set({
      skus_json: JSON.stringify(data),
      title: data.title,
      shop_name: data.shop_name,
      search_text: searchTextOf(data.title, data.shop_name),
      collect_status: 'collected',
      collect_code: null,
      collect_msg: null,
      artifact_ref: null,
      collected_at: now,
      collect_run_id: runId,
      collect_workflow_id: input.workflowId,
      collect_device_id: input.deviceId,
      updated_at: now,
    })
    .where('goods_id', '=', input.pddGoodsId)
    .execute();
}
