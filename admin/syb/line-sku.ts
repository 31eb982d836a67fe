import { specsAgree } from '../../domain/spec-agreement';
import type { OrderLineView } from '../../domain/syb';
import { nowUtc } from '../../domain/time';
import type { AuditHook } from '../catalog/common';
import { writeTransaction, type AdminDb } from '../db/database';
import { invalidInput, conflict, notFound } from '../../domain/api-error';
import { listOrderLines } from './orders';

/** The audit action of an operator's set or clear of a line's SKU; the sync reads it to leave that choice alone. */
export const ORDER_LINE_SKU_SET = 'syb_order.sku.set';

/**
 * Sets or clears a line's Shopee SKU by hand. The SKU must exist locally and belong to the
 * line's goods: a SKU of another product would buy the wrong thing. A SKU whose spec does not
 * read as the line's 规格 (domain/spec-agreement.ts) is refused with SPEC_MISMATCH unless the
 * operator confirmed it; the line then shows 规格不一致.
 */
export async function setOrderLineSku(
  db: AdminDb,
  sybId: string,
  skuId: string | null,
  audit: AuditHook,
  confirmMismatch = false,
): Promise<OrderLineView> {
  await writeTransaction(db, async (trx) => {
    const line = await trx
      .selectFrom('syb_orders')
      .select(['syb_id', 'shopee_goods_id', 'shopee_sku_id', 'product_spec'])
      .where('syb_id', '=', sybId)
      .executeTakeFirst();
    if (!line) throw notFound('SYB_ORDER_NOT_FOUND', `no order line ${sybId}; sync SYB first`);
    if (skuId !== null) {
      const sku = await trx
        .selectFrom('shopee_skus')
        .select(['sku_id', 'goods_id', 'spec_raw'])
        .where('sku_id', '=', skuId)
        .executeTakeFirst();
      if (!sku) throw invalidInput('SHOPEE_SKU_NOT_FOUND', `no local Shopee SKU ${skuId}; add it on the product first`);
      if (sku.goods_id !== line.shopee_goods_id) {
        throw invalidInput(
          'SHOPEE_SKU_OTHER_GOODS',
          `Shopee SKU ${skuId} belongs to goods ${sku.goods_id}, not to this line's goods ${line.shopee_goods_id}`,
        );
      }
      if (!confirmMismatch && !specsAgree(line.product_spec, sku.spec_raw)) {
        throw conflict(
          'SPEC_MISMATCH',
          `Shopee SKU ${skuId} has the spec "${sku.spec_raw ?? ''}", the order line "${line.product_spec ?? ''}"; send confirm_mismatch: true to set it anyway`,
          { line_spec: line.product_spec, sku_spec: sku.spec_raw },
        );
      }
    }
    await trx
      .updateTable('syb_orders')
      .set({ shopee_sku_id: skuId, updated_at: nowUtc() })
      .where('syb_id', '=', sybId)
      .execute();
    await audit(trx, {
      action: ORDER_LINE_SKU_SET,
      target: { kind: 'syb_order', id: sybId },
      details: { shopee_sku_id: skuId, previous: line.shopee_sku_id, confirm_mismatch: confirmMismatch },
    });
  });
  const item = (await listOrderLines(db, { syb_id: sybId, limit: 1 })).items[0];
  if (!item) throw notFound('SYB_ORDER_NOT_FOUND', `no order line ${sybId}`);
  return item;
}
