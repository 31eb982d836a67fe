import { randomUUID } from 'node:crypto';
import type { Selectable } from 'kysely';
import { allowsAction } from '../../domain/purchase/state-machine';
import type { PurchaseStatus } from '../../domain/purchase/status';
import { purchaseWorkflowId, type PurchaseWorkflowInput } from '../../domain/purchase/workflow-types';
import { toUtcTimestamp } from '../../domain/time';
import { recordAudits, type AuditActor } from '../audit/audit';
import type { AdminDb } from '../db/database';
import type { AdminDatabase } from '../db/schema';
import { purchaseWorkflowInput, type AuthorizationForInput } from './workflow-input';
import { conflict } from '../../domain/api-error';

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

/** One authorized task: what the API answers, and the workflow to start for it. */
export interface Authorized {
  started: StartedTask;
  input: PurchaseWorkflowInput;
  /** fixed once started: only a draft's priority can be changed */
  priority: number;
}

type Task = Selectable<AdminDatabase['tasks']>;
type Planned = { task: Task; authorizationId: string; workflowId: string };

/**
 * Inside the one transaction of 「开始采购」 (docs/architecture.md §4.2 step 1): every task's
 * version, state and quantity limit are checked — one refusal refuses the whole batch — then
 * every one-time authorization is written and every task moves to PENDING.
 */
export async function authorizePurchases(
  trx: AdminDb,
  actor: AuditActor,
  items: StartRequestItem[],
  limits: { maxQuantity: number; ttlMinutes: number },
): Promise<Authorized[]> {
  const ids = items.map((i) => i.task_id);
  const rows = await trx.selectFrom('tasks').selectAll().where('task_id', 'in', ids).execute();
  const byId = new Map(rows.map((r) => [r.task_id, r]));
  const refusals = items.flatMap((item) => refusalOf(item, byId.get(item.task_id), limits.maxQuantity));
  if (refusals.length > 0)
    throw conflict('START_REFUSED', 'no task was started: fix the listed tasks and try again', { tasks: refusals });

  const now = new Date();
  const createdAt = toUtcTimestamp(now);
  const expiresAt = toUtcTimestamp(new Date(now.getTime() + limits.ttlMinutes * 60_000));
  const planned = items.map((item): Planned => {
    const task = byId.get(item.task_id)!;
    const authorizationId = randomUUID();
    return { task, authorizationId, workflowId: purchaseWorkflowId(task.task_id, authorizationId) };
  });
  // One multi-row statement per table, not three per task: a 500-task batch held the write
  // lock (and the event loop: better-sqlite3 is synchronous) for 1,500 statements.
  const authorizations = await insertAuthorizations(trx, planned, actor, createdAt, expiresAt);
  for (const p of planned) await moveToPending(trx, p, createdAt);
  await recordAudits(
    trx,
    actor,
    planned.map(({ task, authorizationId }) => ({
      action: 'task.start',
      target: { kind: 'task', id: task.task_id },
      details: {
        authorization_id: authorizationId,
        max_total_price_cent: task.max_total_price_cent,
        quantity: task.quantity,
        execution_mode: task.execution_mode,
        expires_at: expiresAt,
      },
    })),
  );
  return planned.map((p, i) => authorized(p, authorizations[i]!));
}

function refusalOf(
  item: StartRequestItem,
  task: Task | undefined,
  maxQuantity: number,
): Array<{ task_id: string; code: string; message: string }> {
  const refuse = (code: string, message: string) => [{ task_id: item.task_id, code, message }];
  if (!task || task.task_type !== 'purchase') return refuse('TASK_NOT_FOUND', '任务不存在');
  if (task.version !== item.version)
    return refuse('VERSION_CONFLICT', `任务已被修改（当前版本 ${task.version}），请刷新后重试`);
  if (!allowsAction(task.status as PurchaseStatus, 'start'))
    return refuse('NOT_DRAFT', `只有草稿可以开始采购（当前状态 ${task.status}）`);
  if ((task.quantity ?? 0) > maxQuantity)
    return refuse('QUANTITY_OVER_LIMIT', `数量 ${task.quantity} 超过安全上限 ${maxQuantity}`);
  return [];
}

async function insertAuthorizations(
  trx: AdminDb,
  planned: Planned[],
  actor: AuditActor,
  createdAt: string,
  expiresAt: string,
): Promise<AuthorizationForInput[]> {
  const startKey = randomUUID();
  const rows = planned.map(({ task, authorizationId, workflowId }) => ({
    id: authorizationId,
    task_id: task.task_id,
    task_version: task.version,
    start_key: startKey,
    goods_id: task.pdd_goods_id!,
    pdd_options: task.pdd_options!,
    quantity: task.quantity!,
    max_total_price_cent: task.max_total_price_cent!,
    execution_mode: task.execution_mode!,
    status: 'ACTIVE' as const,
    workflow_id: workflowId,
    workflow_started_at: null,
    created_by: actor.name,
    created_at: createdAt,
    expires_at: expiresAt,
    closed_at: null,
  }));
  await trx.insertInto('order_authorizations').values(rows).execute();
  return rows;
}

async function moveToPending(trx: AdminDb, { task, authorizationId, workflowId }: Planned, at: string): Promise<void> {
  const updated = await trx
    .updateTable('tasks')
    .set({
      status: 'PENDING',
      version: task.version + 1,
      authorization_id: authorizationId,
      reason_code: null,
      workflow_id: workflowId,
      started_at: at,
      updated_at: at,
    })
    .where('task_id', '=', task.task_id)
    .where('version', '=', task.version)
    .where('status', '=', 'DRAFT')
    .executeTakeFirst();
  if (updated.numUpdatedRows !== 1n) throw conflict('VERSION_CONFLICT', `task ${task.task_id} changed while starting`);
}

/** The workflow's input is made from the authorization row just written, as the sweep makes it (./start.ts). */
function authorized({ task, authorizationId, workflowId }: Planned, row: AuthorizationForInput): Authorized {
  return {
    started: {
      task_id: task.task_id,
      version: task.version + 1,
      status: 'PENDING',
      authorization_id: authorizationId,
      workflow_id: workflowId,
      expires_at: row.expires_at,
    },
    input: purchaseWorkflowInput(row),
    priority: task.priority,
  };
}
