import { searchTextOf } from '../../domain/catalog-search';
import { canonicalPddGoodsUrl, parsePddGoodsId } from '../../domain/pdd-url';
import type { CreatePurchaseDraft } from '../../domain/purchase/schemas';
import { nowUtc } from '../../domain/time';
import { recordAudit, type AuditActor } from '../audit/audit';
import { CatalogErrors } from '../catalog/errors';
import { writeTransaction, type AdminDb } from '../db/database';
import { badRequest } from '../http/errors';

export interface DraftCreated {
  task_id: string;
  version: number;
  status: 'DRAFT';
}

export interface DraftSource {
  source: 'manual' | 'syb';
  sourceRef?: string;
  /** the 顺运宝 order line a draft is made from (admin/syb/drafts.ts) */
  orderLine?: { sybId: string; orderNo: string; shopeeGoodsId: string; shopeeSkuId: string };
}

/**
 * The one way a purchase task comes to exist — the form in the UI today, SYB order lines later.
 * A draft authorises nothing: starting it is a separate, explicit operator step.
 */
export async function createPurchaseDraft(
  db: AdminDb,
  actor: AuditActor,
  input: CreatePurchaseDraft,
  source: DraftSource = { source: 'manual' },
): Promise<DraftCreated> {
  const parsed = parsePddGoodsId(input.pdd_goods_url);
  if (!parsed.ok) throw badRequest(CatalogErrors.PDD_URL_NO_GOODS_ID, 'no single goods_id in the URL: paste the full PDD goods link');
  const goodsId = parsed.goodsId;
  return writeTransaction(db, async (trx) => {
    const now = nowUtc();
    const taskId = await nextTaskId(trx, now);
    const product = await trx.selectFrom('pdd_products').select(['title', 'shop_name']).where('goods_id', '=', goodsId).executeTakeFirst();
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
        syb_order_no: source.orderLine?.orderNo ?? null,
        shopee_goods_id: source.orderLine?.shopeeGoodsId ?? null,
        shopee_sku_id: source.orderLine?.shopeeSkuId ?? null,
        pdd_options: JSON.stringify(input.pdd_options),
        quantity: input.quantity,
        max_total_price_cent: input.max_total_price_cent,
        execution_mode: input.execution_mode,
        created_by: actor.name,
        created_at: now,
        updated_at: now,
      })
      .execute();
    await recordAudit(trx, actor, {
      action: 'task.create',
      target: { kind: 'task', id: taskId },
      details: { goods_id: goodsId, quantity: input.quantity, max_total_price_cent: input.max_total_price_cent, execution_mode: input.execution_mode },
    });
    return { task_id: taskId, version: 1, status: 'DRAFT' as const };
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
