import { parsePddGoodsId } from '../../domain/pdd-url';
import { nowUtc } from '../../domain/time';
import { writeTransaction, type AdminDb } from '../db/database';
import { invalidInput, notFound } from '../../domain/api-error';
import type { AuditHook } from './common';
import { CatalogErrors } from './errors';

/**
 * docs/architecture.md §5.2: parse goods_id from whatever was pasted, dedupe by goods_id (never URL),
 * revive a soft-deleted goods (pending again, old collect data cleared), then point the
 * Shopee product at it. Mappings are left alone: they are keyed by PDD goods.
 */
export async function linkPddGoods(
  db: AdminDb,
  goodsId: string,
  pasted: string,
  audit: AuditHook,
): Promise<{ pdd_goods_id: string; revived: boolean; created: boolean }> {
  const pddGoodsId = goodsIdOrRefuse(pasted);
  const url = pasted.trim();
  return writeTransaction(db, async (trx) => {
    const product = await trx
      .selectFrom('shopee_products')
      .select(['goods_id', 'pdd_goods_id'])
      .where('goods_id', '=', goodsId)
      .executeTakeFirst();
    if (!product)
      throw notFound(CatalogErrors.SHOPEE_PRODUCT_NOT_FOUND, `no Shopee product ${goodsId}; import it first`);
    const now = nowUtc();
    const { revived, created } = await pddGoodsFor(trx, pddGoodsId, url, now);
    await trx
      .updateTable('shopee_products')
      .set({ pdd_goods_url: url, pdd_goods_id: pddGoodsId, updated_at: now })
      .where('goods_id', '=', goodsId)
      .execute();
    await audit(trx, {
      action: 'shopee.pdd_link.set',
      target: { kind: 'shopee_product', id: goodsId },
      details: { pdd_goods_id: pddGoodsId, previous_pdd_goods_id: product.pdd_goods_id, revived, created },
    });
    return { pdd_goods_id: pddGoodsId, revived, created };
  });
}

function goodsIdOrRefuse(pasted: string): string {
  const parsed = parsePddGoodsId(pasted);
  if (parsed.ok) return parsed.goodsId;
  throw parsed.reason === 'AMBIGUOUS_GOODS_ID'
    ? invalidInput(
        CatalogErrors.PDD_URL_AMBIGUOUS,
        'the text names more than one PDD goods; paste the link of one goods only',
      )
    : invalidInput(
        CatalogErrors.PDD_URL_NO_GOODS_ID,
        'no goods_id in the pasted text; paste the full PDD goods link (it contains goods_id=…)',
      );
}

/** The goods' one row: created, revived from a soft delete (as if new: pending, nothing collected), or kept. */
async function pddGoodsFor(
  trx: AdminDb,
  pddGoodsId: string,
  url: string,
  now: string,
): Promise<{ revived: boolean; created: boolean }> {
  const existing = await trx
    .selectFrom('pdd_products')
    .select(['id', 'deleted_at'])
    .where('goods_id', '=', pddGoodsId)
    .executeTakeFirst();
  if (!existing) {
    await trx
      .insertInto('pdd_products')
      .values({ goods_id: pddGoodsId, url, collect_status: 'pending', created_at: now, updated_at: now })
      .execute();
    return { revived: false, created: true };
  }
  if (existing.deleted_at === null) return { revived: false, created: false };
  await trx
    .updateTable('pdd_products')
    .set({
      url,
      deleted_at: null,
      collect_status: 'pending',
      title: null,
      shop_name: null,
      search_text: null,
      skus_json: null,
      collect_msg: null,
      collect_code: null,
      artifact_ref: null,
      collected_at: null,
      collect_workflow_id: null,
      collect_run_id: null,
      collect_device_id: null,
      updated_at: now,
    })
    .where('id', '=', existing.id)
    .execute();
  return { revived: true, created: false };
}

/** Unlink: the product shows 未填链接 again; its mappings under the old goods stay. */
export async function unlinkPddGoods(db: AdminDb, goodsId: string, audit: AuditHook): Promise<void> {
  await writeTransaction(db, async (trx) => {
    const product = await trx
      .selectFrom('shopee_products')
      .select(['pdd_goods_id'])
      .where('goods_id', '=', goodsId)
      .executeTakeFirst();
    if (!product) throw notFound(CatalogErrors.SHOPEE_PRODUCT_NOT_FOUND, `no Shopee product ${goodsId}`);
    await trx
      .updateTable('shopee_products')
      .set({ pdd_goods_url: null, pdd_goods_id: null, updated_at: nowUtc() })
      .where('goods_id', '=', goodsId)
      .execute();
    await audit(trx, {
      action: 'shopee.pdd_link.clear',
      target: { kind: 'shopee_product', id: goodsId },
      details: { previous_pdd_goods_id: product.pdd_goods_id },
    });
  });
}
