import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { Selectable } from 'kysely';
import { writeTransaction, type AdminDb } from '../../admin/db/database';
import type { TasksTable } from '../../admin/db/tables/catalog';
import { collectTaskId } from '../../admin/catalog/pdd';
import { canonicalPddGoodsUrl } from '../../domain/pdd-url';
import { searchTextOf } from '../../domain/catalog-search';
import { skusJsonSchema, type SkusJson } from '../../domain/collect';
import { nowUtc } from '../../domain/time';

/**
 * The admin side of the collect workflow. Each one is
 * idempotent per collect run: the tasks row of the run records the outcome once, and a retry
 * (or a late duplicate) returns that outcome without changing anything.
 *
 * Names and inputs follow activities/admin/catalog-contract.ts of the collect workflow.
 */
export interface MarkCollectingInput {
  pddGoodsId: string;
  workflowId: string;
  deviceId: string;
}

export interface SaveCollectResultInput {
  pddGoodsId: string;
  workflowId: string;
  deviceId: string;
  result: SkusJson;
  /** whatever the phone counted (screens, retries…); kept with the task, not interpreted */
  counters?: Record<string, unknown>;
}

export interface MarkCollectFailedInput {
  pddGoodsId: string;
  workflowId: string;
  code: string;
  message: string;
  artifactPath?: string | null;
}

export type CollectOutcome = { status: 'collected'; skus: number };

const TERMINAL = new Set(['succeeded', 'failed', 'rejected']);

/** The run id comes from the activity context; outside one (unit tests) the caller passes it. */
function currentRunId(fallback?: string): string {
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

type Task = Selectable<TasksTable>;

async function ensureTask(trx: AdminDb, pddGoodsId: string, workflowId: string, runId: string): Promise<Task> {
  const taskId = collectTaskId(workflowId, runId);
  const now = nowUtc();
  await trx
    .insertInto('tasks')
    .values({
      task_id: taskId,
      task_type: 'collect',
      status: 'queued',
      workflow_id: workflowId,
      run_id: runId,
      pdd_goods_url: canonicalPddGoodsUrl(pddGoodsId),
      pdd_goods_id: pddGoodsId,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.column('task_id').doNothing())
    .execute();
  return trx.selectFrom('tasks').selectAll().where('task_id', '=', taskId).executeTakeFirstOrThrow();
}

/**
 * May this run write the goods' status? Yes when the goods has no run or this one; and when it
 * names another run, only if that run is not newer than this one (a late activity of an old,
 * timed-out run never overwrites a newer collect).
 */
async function ownsProduct(trx: AdminDb, pddGoodsId: string, task: Task): Promise<boolean> {
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

function replayOutcome(task: Task): CollectOutcome {
  if (task.status === 'succeeded') {
    const skus = task.result_data
      ? ((JSON.parse(task.result_data) as { result?: { skus?: unknown[] } }).result?.skus?.length ?? 0)
      : 0;
    return { status: 'collected', skus };
  }
  throw ApplicationFailure.nonRetryable(task.error_message ?? 'collect failed', task.error_code ?? 'COLLECT_FAILED');
}

export function catalogActivities(db: AdminDb, opts: { runId?: () => string | undefined } = {}) {
  const runIdOf = () => currentRunId(opts.runId?.());

  return {
    /** A phone took the collect: status collecting, and which device ran which task. */
    async markCollecting(input: MarkCollectingInput): Promise<void> {
      const runId = runIdOf();
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
    },

    /**
     * The collected goods_id must be the requested one, else reject
     * (COLLECT_GOODS_MISMATCH, non-retryable) and keep the previous data; zero SKUs is a
     * failure (COLLECT_NO_SKUS), never "collected". The full submission is kept in the task.
     */
    async saveCollectResult(input: SaveCollectResultInput): Promise<CollectOutcome> {
      const runId = runIdOf();
      const parsed = skusJsonSchema.safeParse(input.result);
      const outcome = await writeTransaction(
        db,
        async (trx): Promise<{ ok: CollectOutcome } | { fail: { code: string; message: string } }> => {
          const task = await ensureTask(trx, input.pddGoodsId, input.workflowId, runId);
          if (TERMINAL.has(task.status)) {
            try {
              return { ok: replayOutcome(task) };
            } catch (err) {
              const f = err as ApplicationFailure;
              return { fail: { code: f.type ?? 'COLLECT_FAILED', message: f.message } };
            }
          }
          const now = nowUtc();
          const resultData = JSON.stringify({
            device_id: input.deviceId,
            counters: input.counters ?? {},
            result: input.result,
          });
          let fail: { code: string; message: string; taskStatus: 'failed' | 'rejected' } | null = null;
          if (!parsed.success) {
            fail = {
              code: 'COLLECT_RESULT_INVALID',
              message: `采集结果格式不对：${parsed.error.issues.map((i) => i.path.join('.')).join(', ')}`,
              taskStatus: 'rejected',
            };
          } else if (parsed.data.goods_id !== input.pddGoodsId) {
            fail = {
              code: 'COLLECT_GOODS_MISMATCH',
              message: `采集到的商品 ${parsed.data.goods_id} 不是要采集的 ${input.pddGoodsId}（链接跳转或采错商品），已拒绝，原数据保留`,
              taskStatus: 'rejected',
            };
          } else if (parsed.data.skus.length === 0) {
            fail = {
              code: 'COLLECT_NO_SKUS',
              message: '采集到 0 个规格（商品下架、页面改版或没有识别出规格），原数据保留',
              taskStatus: 'failed',
            };
          }
          const owns = await ownsProduct(trx, input.pddGoodsId, task);
          if (fail) {
            await trx
              .updateTable('tasks')
              .set({
                status: fail.taskStatus,
                device_id: input.deviceId,
                error_code: fail.code,
                error_message: fail.message,
                result_data: resultData,
                finished_at: now,
                updated_at: now,
              })
              .where('task_id', '=', task.task_id)
              .execute();
            if (owns) {
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
            return { fail };
          }
          const data = parsed.data as SkusJson;
          await trx
            .updateTable('tasks')
            .set({
              status: 'succeeded',
              device_id: input.deviceId,
              error_code: null,
              error_message: null,
              result_data: resultData,
              finished_at: now,
              updated_at: now,
            })
            .where('task_id', '=', task.task_id)
            .execute();
          if (owns) {
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
          return { ok: { status: 'collected', skus: data.skus.length } };
        },
      );
      if ('fail' in outcome) throw ApplicationFailure.nonRetryable(outcome.fail.message, outcome.fail.code);
      return outcome.ok;
    },

    /** Any other failure: the operator sees the reason and where the artifacts are. */
    async markCollectFailed(input: MarkCollectFailedInput): Promise<void> {
      const runId = runIdOf();
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
    },
  };
}
