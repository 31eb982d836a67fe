import { randomUUID } from 'node:crypto';
import { canonicalPddGoodsUrl } from '../../domain/pdd-url';
import { allowsAction } from '../../domain/purchase/state-machine';
import type { PurchaseStatus } from '../../domain/purchase/status';
import { purchaseWorkflowId, type PurchaseWorkflowInput } from '../../domain/purchase/workflow-types';
import { nowUtc, toUtcTimestamp } from '../../domain/time';
import { recordAudits, type AuditActor } from '../audit/audit';
import { writeTransaction, type AdminDb } from '../db/database';
import { conflict } from '../http/errors';
import { recordPurchasesStarted } from '../metrics/metrics';
import type { Logger } from '../../platform/logger';
import type { TemporalGateway } from '../temporal/gateway';
import { readIntSetting } from './settings';
import { startPurchaseWorkflow } from './workflow-client';

export interface StartRequestItem {
  task_id: string;
  version: number;
}

export interface StartedTask {
  task_id: string;
  version: number;
  status: 'PENDING';
  authorization_id: string;
  workflow_id: string;
  expires_at: string;
}

/**
 * 「开始采购」: ONE transaction checks every task's version and state and creates every one-time
 * authorization — all or nothing. Workflows start after the commit; one that
 * cannot start now (Temporal down) is started by the sweep, so nothing is lost.
 */
export async function startPurchases(
  deps: { db: AdminDb; temporal: TemporalGateway; log: Logger },
  actor: AuditActor,
  items: StartRequestItem[],
): Promise<StartedTask[]> {
  const ids = items.map((i) => i.task_id);
  if (new Set(ids).size !== ids.length)
    throw conflict('DUPLICATE_TASKS', 'the same task is listed twice', { task_ids: ids });
  const maxQuantity = await readIntSetting(deps.db, 'safety.max_quantity');
  const ttlMinutes = await readIntSetting(deps.db, 'purchase.authorization_ttl_minutes');

  const planned = await writeTransaction(deps.db, async (trx) => {
    const rows = await trx.selectFrom('tasks').selectAll().where('task_id', 'in', ids).execute();
    const byId = new Map(rows.map((r) => [r.task_id, r]));
    const refusals: Array<{ task_id: string; code: string; message: string }> = [];
    for (const item of items) {
      const task = byId.get(item.task_id);
      if (!task || task.task_type !== 'purchase')
        refusals.push({ task_id: item.task_id, code: 'TASK_NOT_FOUND', message: '任务不存在' });
      else if (task.version !== item.version)
        refusals.push({
          task_id: item.task_id,
          code: 'VERSION_CONFLICT',
          message: `任务已被修改（当前版本 ${task.version}），请刷新后重试`,
        });
      else if (!allowsAction(task.status as PurchaseStatus, 'start'))
        refusals.push({
          task_id: item.task_id,
          code: 'NOT_DRAFT',
          message: `只有草稿可以开始采购（当前状态 ${task.status}）`,
        });
      else if ((task.quantity ?? 0) > maxQuantity)
        refusals.push({
          task_id: item.task_id,
          code: 'QUANTITY_OVER_LIMIT',
          message: `数量 ${task.quantity} 超过安全上限 ${maxQuantity}`,
        });
    }
    if (refusals.length > 0)
      throw conflict('START_REFUSED', 'no task was started: fix the listed tasks and try again', { tasks: refusals });

    const now = new Date();
    const createdAt = toUtcTimestamp(now);
    const expiresAt = toUtcTimestamp(new Date(now.getTime() + ttlMinutes * 60_000));
    const startKey = randomUUID();
    const planned = items.map((item) => {
      const task = byId.get(item.task_id)!;
      const authorizationId = randomUUID();
      return { task, authorizationId, workflowId: purchaseWorkflowId(task.task_id, authorizationId) };
    });
    // One multi-row statement per table, not three per task: a 500-task batch held the write
    // lock (and the event loop: better-sqlite3 is synchronous) for 1,500 statements.
    await trx
      .insertInto('order_authorizations')
      .values(
        planned.map(({ task, authorizationId, workflowId }) => ({
          id: authorizationId,
          task_id: task.task_id,
          task_version: task.version,
          start_key: startKey,
          goods_id: task.pdd_goods_id!,
          pdd_options: task.pdd_options!,
          quantity: task.quantity!,
          total_price_cap_cent: task.max_total_price_cent!,
          execution_mode: task.execution_mode!,
          status: 'ACTIVE' as const,
          workflow_id: workflowId,
          workflow_started_at: null,
          created_by: actor.name,
          created_at: createdAt,
          expires_at: expiresAt,
          closed_at: null,
        })),
      )
      .execute();
    for (const { task, authorizationId, workflowId } of planned) {
      const updated = await trx
        .updateTable('tasks')
        .set({
          status: 'PENDING',
          version: task.version + 1,
          authorization_id: authorizationId,
          reason_code: null,
          workflow_id: workflowId,
          started_at: createdAt,
          updated_at: createdAt,
        })
        .where('task_id', '=', task.task_id)
        .where('version', '=', task.version)
        .where('status', '=', 'DRAFT')
        .executeTakeFirst();
      if (updated.numUpdatedRows !== 1n)
        throw conflict('VERSION_CONFLICT', `task ${task.task_id} changed while starting`);
    }
    await recordAudits(
      trx,
      actor,
      planned.map(({ task, authorizationId }) => ({
        action: 'task.start',
        target: { kind: 'task', id: task.task_id },
        details: {
          authorization_id: authorizationId,
          cap_cent: task.max_total_price_cent,
          quantity: task.quantity,
          execution_mode: task.execution_mode,
          expires_at: expiresAt,
        },
      })),
    );
    return planned.map(({ task, authorizationId, workflowId }) => ({
      started: {
        task_id: task.task_id,
        version: task.version + 1,
        status: 'PENDING' as const,
        authorization_id: authorizationId,
        workflow_id: workflowId,
        expires_at: expiresAt,
      },
      input: {
        taskId: task.task_id,
        authorizationId,
        goodsId: task.pdd_goods_id!,
        goodsUrl: canonicalPddGoodsUrl(task.pdd_goods_id!),
        options: JSON.parse(task.pdd_options!) as Record<string, string>,
        quantity: task.quantity!,
        capCent: task.max_total_price_cent!,
        mode: task.execution_mode!,
        expiresAt,
      } satisfies PurchaseWorkflowInput,
      // fixed once started: only a draft's priority can be changed
      priority: task.priority,
    }));
  });
  recordPurchasesStarted(planned.length);

  // The inputs are the ones just committed: no read back per task. Each start that succeeded is
  // noted in one write at the end; one that failed is left to the sweep.
  const startedIds: string[] = [];
  await forEachAtMost(WORKFLOW_STARTS_AT_ONCE, planned, async ({ started, input, priority }) => {
    try {
      await startPurchaseWorkflow(deps.temporal, started.workflow_id, input, priority);
      startedIds.push(started.authorization_id);
    } catch (err) {
      deps.log.warn(
        { err: (err as Error).message, task: started.task_id },
        'purchase workflow not started yet; the sweep will start it',
      );
    }
  });
  await markWorkflowsStarted(deps.db, startedIds);
  return planned.map((p) => p.started);
}

/** `workflow_started_at` of these authorizations, in one statement per 500 (SQLite's parameter limit). */
async function markWorkflowsStarted(db: AdminDb, authorizationIds: string[]): Promise<void> {
  const at = nowUtc();
  for (let i = 0; i < authorizationIds.length; i += 500)
    await db
      .updateTable('order_authorizations')
      .set({ workflow_started_at: at })
      .where('id', 'in', authorizationIds.slice(i, i + 500))
      .where('workflow_started_at', 'is', null)
      .execute();
}

/**
 * Workflow starts in flight at once after the commit: each is a Temporal round trip, so one at a
 * time made a 500-task batch wait half a minute (docs/PERFORMANCE.md); a bound keeps a batch
 * from flooding the frontend and the admin's SQLite writer. Starting twice stays harmless: the
 * start is idempotent by workflow id.
 */
const WORKFLOW_STARTS_AT_ONCE = 32;

async function forEachAtMost<T>(limit: number, items: readonly T[], fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

/** Starts (idempotently, by workflow id) the workflow of one authorization and notes that it did. */
export async function startAuthorizedWorkflow(
  deps: { db: AdminDb; temporal: TemporalGateway },
  authorizationId: string,
): Promise<void> {
  const auth = await deps.db
    .selectFrom('order_authorizations')
    .selectAll()
    .where('id', '=', authorizationId)
    .executeTakeFirstOrThrow();
  const input: PurchaseWorkflowInput = {
    taskId: auth.task_id,
    authorizationId: auth.id,
    goodsId: auth.goods_id,
    goodsUrl: canonicalPddGoodsUrl(auth.goods_id),
    options: JSON.parse(auth.pdd_options) as Record<string, string>,
    quantity: auth.quantity,
    capCent: auth.total_price_cap_cent,
    mode: auth.execution_mode,
    expiresAt: auth.expires_at,
  };
  // fixed once started: only a draft's priority can be changed
  const task = await deps.db
    .selectFrom('tasks')
    .select('priority')
    .where('task_id', '=', auth.task_id)
    .executeTakeFirstOrThrow();
  await startPurchaseWorkflow(deps.temporal, auth.workflow_id, input, task.priority);
  await deps.db
    .updateTable('order_authorizations')
    .set({ workflow_started_at: nowUtc() })
    .where('id', '=', auth.id)
    .where('workflow_started_at', 'is', null)
    .execute();
}
