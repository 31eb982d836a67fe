import { searchTextOf } from '../../domain/catalog-search';
import { canonicalPddGoodsUrl, parsePddGoodsId } from '../../domain/pdd-url';
import { TASK_PRIORITY } from '../../domain/purchase/priority';
import type { CreatePurchaseDraft, EditPurchaseDraft } from '../../domain/purchase/schemas';
import { allowsAction } from '../../domain/purchase/state-machine';
import { STATUS_ZH, type PurchaseStatus } from '../../domain/purchase/status';
import { nowUtc } from '../../domain/time';
import { recordAudit, type AuditActor } from '../audit/audit';
import { CatalogErrors } from '../catalog/errors';
import { writeTransaction, type AdminDb } from '../db/database';
import { badRequest, conflict, HttpError, notFound } from '../http/errors';
import type { DraftWarning } from '../../domain/purchase/views';
import { checkPurchaseOptions } from './options';
import { readIntSetting } from './settings';
import { draftWarnings } from './warnings';

export interface DraftCreated {
  task_id: string;
  version: number;
  status: 'DRAFT';
  /** 草稿提示 of the draft as saved (the task view carries them too) */
  warnings: DraftWarning[];
}

export interface DraftSource {
  source: 'manual' | 'syb';
  sourceRef?: string;
  /** the 顺运宝 order line a draft is made from (admin/syb/drafts.ts) */
  orderLine?: { sybId: string; sybOrderNo: string; shopeeGoodsId: string; shopeeSkuId: string };
}

/**
 * The one way a purchase task comes to exist — the form in the UI today, SYB order lines later.
 * A draft authorises nothing: starting it is a separate, explicit operator step.
 */
export async function createPurchaseDraft(
  db: AdminDb,
  actor: AuditActor,
  /** without a priority (an order line's draft, or none given) the default one */
  input: CreatePurchaseDraft,
  source: DraftSource = { source: 'manual' },
): Promise<DraftCreated> {
  const parsed = parsePddGoodsId(input.pdd_goods_url);
  if (!parsed.ok)
    throw badRequest(CatalogErrors.PDD_URL_NO_GOODS_ID, 'no single goods_id in the URL: paste the full PDD goods link');
  const goodsId = parsed.goodsId;
  await checkQuantity(db, input.quantity);
  await checkPurchaseOptions(db, goodsId, input.pdd_options);
  const created = await writeTransaction(db, async (trx) => {
    const now = nowUtc();
    const taskId = await nextTaskId(trx, now);
    const product = await trx
      .selectFrom('pdd_products')
      .select(['title', 'shop_name'])
      .where('goods_id', '=', goodsId)
      .executeTakeFirst();
    const title = input.title ?? product?.title ?? null;
    await trx
      .insertInto('tasks')
      .values({
        task_id: taskId,
        task_type: 'purchase',
        status: 'DRAFT',
        version: 1,
        pdd_goods_url: canonicalPddGoodsUrl(goodsId),
        pdd_goods_id: goodsId,
        title,
        search_text: searchTextOf(title),
        shop_name: product?.shop_name ?? null,
        source: source.source,
        source_ref: source.sourceRef ?? null,
        syb_id: source.orderLine?.sybId ?? null,
        syb_order_no: source.orderLine?.sybOrderNo ?? null,
        shopee_goods_id: source.orderLine?.shopeeGoodsId ?? null,
        shopee_sku_id: source.orderLine?.shopeeSkuId ?? null,
        pdd_options: JSON.stringify(input.pdd_options),
        quantity: input.quantity,
        max_total_price_cent: input.max_total_price_cent,
        execution_mode: input.execution_mode,
        priority: input.priority ?? TASK_PRIORITY.default,
        created_by: actor.name,
        created_at: now,
        updated_at: now,
      })
      .execute();
    await recordAudit(trx, actor, {
      action: 'task.create',
      target: { kind: 'task', id: taskId },
      details: {
        goods_id: goodsId,
        quantity: input.quantity,
        max_total_price_cent: input.max_total_price_cent,
        execution_mode: input.execution_mode,
        priority: input.priority ?? TASK_PRIORITY.default,
      },
    });
    return { task_id: taskId, version: 1, status: 'DRAFT' as const };
  });
  return {
    ...created,
    warnings: await draftWarnings(db, {
      pdd_goods_id: goodsId,
      pdd_options: input.pdd_options,
      quantity: input.quantity,
      max_total_price_cent: input.max_total_price_cent,
      syb_id: source.orderLine?.sybId ?? null,
    }),
  };
}

/**
 * Over `safety.max_quantity` a draft is refused when saved, with both numbers; the start checks
 * it again (admin/purchase/start.ts), since the limit may be lowered after the save.
 */
async function checkQuantity(db: AdminDb, quantity: number): Promise<void> {
  let max: number;
  try {
    max = await readIntSetting(db, 'safety.max_quantity');
  } catch (err) {
    // a limit broken by hand refuses the start (SETTING_INVALID), not the saving of a draft
    if (err instanceof HttpError && err.code === 'SETTING_INVALID') return;
    throw err;
  }
  if (quantity > max)
    throw badRequest('QUANTITY_OVER_LIMIT', `数量 ${quantity} 超过上限 ${max}`, { quantity, max_quantity: max });
}

/**
 * 编辑草稿: the fields given replace the draft's, as a new task version. Only a DRAFT can be
 * edited and only at the version the operator saw, so an edit never lands on a task that moved
 * on, and an authorization asked for the old version is refused at start (admin/purchase/start.ts).
 */
export async function editPurchaseDraft(
  db: AdminDb,
  actor: AuditActor,
  taskId: string,
  input: EditPurchaseDraft,
): Promise<Omit<DraftCreated, 'warnings'>> {
  const current = await db
    .selectFrom('tasks')
    .select(['pdd_goods_id', 'pdd_options'])
    .where('task_id', '=', taskId)
    .where('task_type', '=', 'purchase')
    .executeTakeFirst();
  if (!current) throw notFound('TASK_NOT_FOUND', `no purchase task ${taskId}`);
  if (input.quantity !== undefined) await checkQuantity(db, input.quantity);
  let goodsId = current.pdd_goods_id ?? '';
  if (input.pdd_goods_url !== undefined) {
    const parsed = parsePddGoodsId(input.pdd_goods_url);
    if (!parsed.ok)
      throw badRequest(
        CatalogErrors.PDD_URL_NO_GOODS_ID,
        'no single goods_id in the URL: paste the full PDD goods link',
      );
    goodsId = parsed.goodsId;
  }
  // A new goods is judged with the options it will be bought with, kept or given.
  if (input.pdd_options !== undefined || goodsId !== current.pdd_goods_id) {
    await checkPurchaseOptions(
      db,
      goodsId,
      input.pdd_options ?? (JSON.parse(current.pdd_options ?? '{}') as Record<string, string>),
    );
  }
  return writeTransaction(db, async (trx) => {
    const task = await trx
      .selectFrom('tasks')
      .selectAll()
      .where('task_id', '=', taskId)
      .where('task_type', '=', 'purchase')
      .executeTakeFirst();
    if (!task) throw notFound('TASK_NOT_FOUND', `no purchase task ${taskId}`);
    const status = task.status as PurchaseStatus;
    if (!allowsAction(status, 'edit'))
      throw conflict('NOT_DRAFT', `只有草稿可以编辑（当前状态：${STATUS_ZH[status] ?? task.status}）`);
    if (task.version !== input.version)
      throw conflict('VERSION_CONFLICT', `任务已被修改（当前版本 ${task.version}），请刷新后重试`);
    if (task.pdd_goods_id !== current.pdd_goods_id) throw conflict('VERSION_CONFLICT', '任务已被修改，请刷新后重试');
    const product =
      goodsId !== task.pdd_goods_id
        ? await trx
            .selectFrom('pdd_products')
            .select(['title', 'shop_name'])
            .where('goods_id', '=', goodsId)
            .executeTakeFirst()
        : undefined;
    const title = input.title ?? (product ? (product.title ?? task.title) : task.title);
    const now = nowUtc();
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
        updated_at: now,
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
 * 复制为真实下单: after a dry run passed, a new live DRAFT with the same goods, options,
 * quantity and cap (and the same order line, if any). It authorises nothing by itself; the
 * operator still starts it, and the live start shows its own warning.
 */
export async function copyAsLive(db: AdminDb, actor: AuditActor, taskId: string): Promise<DraftCreated> {
  const task = await db
    .selectFrom('tasks')
    .selectAll()
    .where('task_id', '=', taskId)
    .where('task_type', '=', 'purchase')
    .executeTakeFirst();
  if (!task) throw notFound('TASK_NOT_FOUND', `no purchase task ${taskId}`);
  if (task.status !== 'DRY_RUN_PASSED') throw conflict('ACTION_NOT_ALLOWED', '只有试运行通过的任务可以复制为真实下单');
  const orderLine =
    task.syb_id !== null && task.syb_order_no !== null && task.shopee_goods_id !== null && task.shopee_sku_id !== null
      ? {
          sybId: task.syb_id,
          sybOrderNo: task.syb_order_no,
          shopeeGoodsId: task.shopee_goods_id,
          shopeeSkuId: task.shopee_sku_id,
        }
      : undefined;
  const copy = createPurchaseDraft(
    db,
    actor,
    {
      type: 'purchase',
      pdd_goods_url: task.pdd_goods_url,
      pdd_options: JSON.parse(task.pdd_options ?? '{}') as Record<string, string>,
      quantity: task.quantity ?? 1,
      max_total_price_cent: task.max_total_price_cent ?? 0,
      execution_mode: 'live',
      priority: task.priority,
      ...(task.title !== null ? { title: task.title } : {}),
    },
    { source: task.source ?? 'manual', sourceRef: task.source_ref ?? taskId, ...(orderLine ? { orderLine } : {}) },
  );
  // An order line has at most one live task (migrations/0030_syb.ts): a second copy is refused.
  return copy.catch((err: unknown) => {
    const e = err as { code?: unknown; message?: unknown };
    if (e.code === 'SQLITE_CONSTRAINT_UNIQUE' && typeof e.message === 'string' && e.message.includes('tasks.syb_id')) {
      throw conflict('ALREADY_DRAFTED', '这条订单明细已有进行中的采购任务');
    }
    throw err;
  });
}

/** `PDD-YYYYMMDD-NNNN`, a per-day sequence; safe because we hold the write lock. */
async function nextTaskId(trx: AdminDb, now: string): Promise<string> {
  const prefix = `PDD-${now.slice(0, 10).replaceAll('-', '')}-`;
  const last = await trx
    .selectFrom('tasks')
    .select('task_id')
    .where('task_id', 'like', `${prefix}%`)
    .orderBy('task_id', 'desc')
    .limit(1)
    .executeTakeFirst();
  const next = last ? Number(last.task_id.slice(prefix.length)) + 1 : 1;
  return `${prefix}${String(next).padStart(4, '0')}`;
}
