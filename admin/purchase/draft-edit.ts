import type { Selectable } from 'kysely';
import { searchTextOf } from '../../domain/catalog-search';
import { canonicalPddGoodsUrl } from '../../domain/pdd-url';
import type { EditPurchaseDraft } from '../../domain/purchase/schemas';
import { allowsAction } from '../../domain/purchase/state-machine';
import { STATUS_ZH, type PurchaseStatus } from '../../domain/purchase/status';
import { nowUtc } from '../../domain/time';
import { recordAudit, type AuditActor } from '../audit/audit';
import { writeTransaction, type AdminDb } from '../db/database';
import type { AdminDatabase } from '../db/schema';
import { conflict, notFound } from '../../domain/api-error';
import { purchaseTaskRow } from './task-row';
import { checkQuantity, collectedNames, draftGoodsId } from './draft-rules';
import type { DraftCreated } from './drafts';
import { checkPurchaseOptions } from './options';

/**
 * 编辑草稿: the fields given replace the draft's, as a new task version. Only a DRAFT can be
 * edited and only at the version the operator saw, so an edit never lands on a task that moved
 * on, and an authorization asked for the old version is refused at start (admin/purchase/start.ts).
 * The new fields are judged as a new draft's are (admin/purchase/draft-rules.ts, options.ts),
 * before the transaction, so a refused edit writes nothing.
 */
export async function editPurchaseDraft(
  db: AdminDb,
  actor: AuditActor,
  taskId: string,
  input: EditPurchaseDraft,
): Promise<Omit<DraftCreated, 'warnings'>> {
  const { seenGoodsId, goodsId } = await judgeEdit(db, taskId, input);
  return writeTransaction(db, async (trx) => {
    const task = await editableDraft(trx, taskId, input.version);
    // the goods the edit was judged against must still be the task's
    if (task.pdd_goods_id !== seenGoodsId) throw conflict('VERSION_CONFLICT', '任务已被修改，请刷新后重试');
    const product = goodsId !== task.pdd_goods_id ? await collectedNames(trx, goodsId) : undefined;
    const title = input.title ?? (product ? (product.title ?? task.title) : task.title);
    const version = task.version + 1;
    const updated = await trx
      .updateTable('tasks')
      .set({
        version,
        pdd_goods_id: goodsId,
        pdd_goods_url: canonicalPddGoodsUrl(goodsId),
        title,
        search_text: searchTextOf(title),
        ...(product ? { shop_name: product.shop_name } : {}),
        ...(input.pdd_options !== undefined ? { pdd_options: JSON.stringify(input.pdd_options) } : {}),
        ...(input.quantity !== undefined ? { quantity: input.quantity } : {}),
        ...(input.max_total_price_cent !== undefined ? { max_total_price_cent: input.max_total_price_cent } : {}),
        ...(input.execution_mode !== undefined ? { execution_mode: input.execution_mode } : {}),
        ...(input.priority !== undefined ? { priority: input.priority } : {}),
        updated_at: nowUtc(),
      })
      .where('task_id', '=', taskId)
      .where('version', '=', task.version)
      .where('status', '=', 'DRAFT')
      .executeTakeFirst();
    if (updated.numUpdatedRows !== 1n) throw conflict('VERSION_CONFLICT', '任务已被修改，请刷新后重试');
    const { version: _seen, ...changes } = input;
    await recordAudit(trx, actor, {
      action: 'task.edit',
      target: { kind: 'task', id: taskId },
      details: { from_version: task.version, to_version: version, ...changes },
    });
    return { task_id: taskId, version, status: 'DRAFT' as const };
  });
}

/**
 * Judges the edit against the task as read now: the task's goods as seen, and the goods it will have.
 * A new goods is judged with the options it will be bought with, kept or given, and is refused
 * NOT_COLLECTED when no phone ever collected it, as a new draft's would be.
 */
async function judgeEdit(
  db: AdminDb,
  taskId: string,
  input: EditPurchaseDraft,
): Promise<{ seenGoodsId: string | null; goodsId: string }> {
  const current = await db
    .selectFrom('tasks')
    .select(['pdd_goods_id', 'pdd_options'])
    .where('task_id', '=', taskId)
    .where('task_type', '=', 'purchase')
    .executeTakeFirst();
  if (!current) throw notFound('TASK_NOT_FOUND', `no purchase task ${taskId}`);
  if (input.quantity !== undefined) await checkQuantity(db, input.quantity);
  const goodsId = input.pdd_goods_url !== undefined ? draftGoodsId(input.pdd_goods_url) : (current.pdd_goods_id ?? '');
  if (input.pdd_options !== undefined || goodsId !== current.pdd_goods_id) {
    const options = input.pdd_options ?? (JSON.parse(current.pdd_options ?? '{}') as Record<string, string>);
    await checkPurchaseOptions(db, goodsId, options);
  }
  return { seenGoodsId: current.pdd_goods_id, goodsId };
}

/** The task inside the write transaction, refused unless it is a DRAFT at the version the operator saw. */
async function editableDraft(
  trx: AdminDb,
  taskId: string,
  seenVersion: number,
): Promise<Selectable<AdminDatabase['tasks']>> {
  const task = await purchaseTaskRow(trx, taskId);
  const status = task.status as PurchaseStatus;
  if (!allowsAction(status, 'edit'))
    throw conflict('NOT_DRAFT', `只有草稿可以编辑（当前状态：${STATUS_ZH[status] ?? task.status}）`);
  if (task.version !== seenVersion)
    throw conflict('VERSION_CONFLICT', `任务已被修改（当前版本 ${task.version}），请刷新后重试`);
  return task;
}
