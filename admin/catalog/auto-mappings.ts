import type { AutoMappingPreview, MappingSaved } from '../../domain/catalog-views';
import { conflict, notFound } from '../../domain/api-error';
import { writeTransaction, type AdminDb } from '../db/database';
import { autoMappingsOf } from './auto-mapping-match';
import type { AuditHook } from './common';
import { CatalogErrors } from './errors';
import { writeMapping } from './mappings';
import { collected } from './pdd-view';
import { productParts } from './products';

/** What 按文字一致全部映射 would do now for one product; SKUs already mapped are counted, not touched. */
export async function autoMappingPreview(db: AdminDb, goodsId: string): Promise<AutoMappingPreview> {
  const product = await db
    .selectFrom('shopee_products')
    .select(['goods_id', 'pdd_goods_id'])
    .where('goods_id', '=', goodsId)
    .executeTakeFirst();
  if (!product) throw notFound(CatalogErrors.SHOPEE_PRODUCT_NOT_FOUND, `no Shopee product ${goodsId}`);
  const { pdd, skus, mappings } = await productParts(db, goodsId, product.pdd_goods_id);
  if (!pdd) throw conflict(CatalogErrors.PDD_NOT_LINKED, 'the product has no PDD goods; paste its PDD link first');
  const data = collected(pdd.skus_json);
  if (!data || data.skus.length === 0)
    throw conflict(CatalogErrors.PDD_NOT_COLLECTED, 'the PDD goods has not been collected; collect it first');
  return {
    goods_id: goodsId,
    pdd_goods_id: pdd.goods_id,
    dimensions: data.dimensions.map((d) => ({ key: d.key, name: d.name })),
    ...autoMappingsOf(skus, mappings, data),
  };
}

export interface AutoMappingConfirm {
  pdd_goods_id: string;
  mappings: ReadonlyArray<{ sku_id: string; pdd_option_key: string }>;
}

/**
 * Writes the previewed mappings, each as a hand mapping is written and audited (writeMapping),
 * all in one transaction — or none: if the goods, a SKU's spec or mapping, or the collect changed
 * so that any of them is no longer what the preview showed, 409 AUTO_MAPPING_CHANGED.
 */
export async function applyAutoMappings(
  db: AdminDb,
  goodsId: string,
  confirm: AutoMappingConfirm,
  mappedBy: string | null,
  audit: AuditHook,
): Promise<{ mapped: MappingSaved[] }> {
  return writeTransaction(db, async (trx) => {
    const now = await autoMappingPreview(trx, goodsId);
    const planned = confirm.mappings.map((m) => ({
      ...m,
      row: now.mappable.find((r) => r.sku_id === m.sku_id && r.pdd.option_key === m.pdd_option_key),
    }));
    const changed = planned.filter((p) => p.row === undefined).map((p) => p.sku_id);
    if (now.pdd_goods_id !== confirm.pdd_goods_id || changed.length > 0)
      throw conflict(CatalogErrors.AUTO_MAPPING_CHANGED, 'the product changed since the preview; preview again', {
        pdd_goods_id: now.pdd_goods_id,
        changed,
      });
    const mapped: MappingSaved[] = [];
    for (const p of planned)
      if (p.row) mapped.push(await writeMapping(trx, p.sku_id, p.row.pdd.options, mappedBy, audit));
    return { mapped };
  });
}
