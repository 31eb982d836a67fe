import { searchTextOf } from '../../domain/catalog-search';
import { canonicalPddGoodsUrl } from '../../domain/pdd-url';
import { TASK_PRIORITY } from '../../domain/purchase/priority';
import type { CreatePurchaseDraft } from '../../domain/purchase/schemas';
import type { DraftWarning } from '../../domain/purchase/views';
import { taipeiDay } from '../../domain/syb';
import { nowUtc } from '../../domain/time';
import { recordAudit, type AuditActor } from '../audit/audit';
import { writeTransaction, type AdminDb } from '../db/database';
import { checkQuantity, collectedNames, draftGoodsId } from './draft-rules';
import { checkPurchaseOptions } from './options';
import { draftWarnings } from './warnings';
import { claimWarnings } from './claim-warnings';

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
 * The one way a purchase task comes to exist: the 新建采购任务 form, a 顺运宝 order line
 * (admin/syb/drafts.ts) and 复制为真实下单 (admin/purchase/copy-live.ts). Everything is judged
 * before the write transaction, so a refusal writes nothing: the quantity, then the options
 * against the goods' collect (a goods never collected is refused NOT_COLLECTED). A draft
 * authorises nothing: starting it is a separate, explicit operator step.
 */
export async function createPurchaseDraft(
  db: AdminDb,
  actor: AuditActor,
  /** without a priority (an order line's draft, or none given) the default one */
  input: CreatePurchaseDraft,
  source: DraftSource = { source: 'manual' },
): Promise<DraftCreated> {
  const goodsId = draftGoodsId(input.pdd_goods_url);
  await checkQuantity(db, input.quantity);
  await checkPurchaseOptions(db, goodsId, input.pdd_options);
  const priority = input.priority ?? TASK_PRIORITY.default;
  const created = await writeTransaction(db, async (trx) => {
    const now = nowUtc();
    const taskId = await nextTaskId(trx, now);
    const product = await collectedNames(trx, goodsId);
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
        priority,
        created_by: actor.name,
        created_at: now,
        updated_at: now,
      })
      .execute();
    const { quantity, max_total_price_cent, execution_mode } = input;
    await recordAudit(trx, actor, {
      action: 'task.create',
      target: { kind: 'task', id: taskId },
      details: { goods_id: goodsId, quantity, max_total_price_cent, execution_mode, priority },
    });
    return { task_id: taskId, version: 1, status: 'DRAFT' as const };
  });
  const warnings = await draftWarnings(db, {
    pdd_goods_id: goodsId,
    pdd_options: input.pdd_options,
    quantity: input.quantity,
    max_total_price_cent: input.max_total_price_cent,
    syb_id: source.orderLine?.sybId ?? null,
  });
  const claim = await claimWarnings(db, { status: 'DRAFT', execution_mode: input.execution_mode });
  return { ...created, warnings: [...warnings, ...claim.warnings] };
}

/**
 * `PDD-YYYYMMDD-`: the day is the business day (Taipei, as the 顺运宝 orders and the operator
 * count days), not UTC's, whose day starts at 08:00 there.
 */
export function taskIdPrefix(now: string): string {
  return `PDD-${taipeiDay(new Date(now)).replaceAll('-', '')}-`;
}

/** `PDD-YYYYMMDD-NNNN`, a per-day sequence; safe because we hold the write lock. */
async function nextTaskId(trx: AdminDb, now: string): Promise<string> {
  const prefix = taskIdPrefix(now);
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
