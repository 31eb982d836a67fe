import { nowUtc } from '../../domain/time';
import { writeTransaction, type AdminDb } from '../db/database';
import { conflict, notFound } from '../../domain/api-error';
import type { AuditHook } from './common';
import { CatalogErrors } from './errors';

export interface ManualSkuInput {
  sku_id: string;
  spec_raw?: string | undefined;
  color: string;
  size: string;
  advice?: string | null | undefined;
  sku_code?: string | null | undefined;
}

/** An operator adds a SKU the export lacks (is_manual = 1: the import never touches it). */
export async function addManualSku(db: AdminDb, goodsId: string, input: ManualSkuInput, audit: AuditHook) {
  return writeTransaction(db, async (trx) => {
    const product = await trx
      .selectFrom('shopee_products')
      .select('goods_id')
      .where('goods_id', '=', goodsId)
      .executeTakeFirst();
    if (!product) throw notFound(CatalogErrors.SHOPEE_PRODUCT_NOT_FOUND, `no Shopee product ${goodsId}`);
    const existing = await trx
      .selectFrom('shopee_skus')
      .select(['goods_id'])
      .where('sku_id', '=', input.sku_id)
      .executeTakeFirst();
    if (existing)
      throw conflict(
        CatalogErrors.SHOPEE_SKU_EXISTS,
        `SKU ${input.sku_id} already exists (product ${existing.goods_id}); fix it instead`,
      );
    const now = nowUtc();
    const advice = input.advice?.trim() || null;
    const specRaw = input.spec_raw?.trim() || `${input.color},${input.size}${advice ? `【建議${advice}】` : ''}`;
    await trx
      .insertInto('shopee_skus')
      .values({
        sku_id: input.sku_id,
        goods_id: goodsId,
        spec_raw: specRaw,
        color: input.color,
        size: input.size,
        advice,
        parse_ok: 1,
        sku_code: input.sku_code?.trim() || null,
        is_manual: 1,
        created_at: now,
        updated_at: now,
      })
      .execute();
    await audit(trx, {
      action: 'shopee.sku.add',
      target: { kind: 'shopee_sku', id: input.sku_id },
      details: { goods_id: goodsId, color: input.color, size: input.size, advice },
    });
    return { sku_id: input.sku_id };
  });
}

/** An operator completes or corrects a SKU by hand; from then on the import leaves it alone. */
export async function fixSku(
  db: AdminDb,
  skuId: string,
  input: { color: string; size: string; advice?: string | null | undefined },
  audit: AuditHook,
) {
  return writeTransaction(db, async (trx) => {
    const sku = await trx.selectFrom('shopee_skus').selectAll().where('sku_id', '=', skuId).executeTakeFirst();
    if (!sku) throw notFound(CatalogErrors.SHOPEE_SKU_NOT_FOUND, `no SKU ${skuId}`);
    const advice = input.advice?.trim() || null;
    await trx
      .updateTable('shopee_skus')
      .set({ color: input.color, size: input.size, advice, parse_ok: 1, is_manual: 1, updated_at: nowUtc() })
      .where('sku_id', '=', skuId)
      .execute();
    await audit(trx, {
      action: 'shopee.sku.fix',
      target: { kind: 'shopee_sku', id: skuId },
      details: {
        before: { color: sku.color, size: sku.size, advice: sku.advice, parse_ok: sku.parse_ok },
        after: { color: input.color, size: input.size, advice },
      },
    });
    return { sku_id: skuId };
  });
}
