import type { MappingView, ProductDetailView } from '../../domain/catalog-views';
import type { AdminDb } from '../db/database';
import { notFound } from '../../domain/api-error';
import { autoMappingsOf } from './auto-mapping-match';
import { CatalogErrors } from './errors';
import { collected, pddSkuRows, pddView, productState } from './pdd-view';

/** One product with its SKUs, each with its mapping under the product's *current* PDD goods. */
export async function getShopeeProduct(db: AdminDb, goodsId: string, nowMs = Date.now()): Promise<ProductDetailView> {
  const product = await db.selectFrom('shopee_products').selectAll().where('goods_id', '=', goodsId).executeTakeFirst();
  if (!product) throw notFound(CatalogErrors.SHOPEE_PRODUCT_NOT_FOUND, `no Shopee product ${goodsId}; import it first`);
  const { pdd, skus, mappings } = await productParts(db, goodsId, product.pdd_goods_id);
  const data = pdd ? collected(pdd.skus_json) : null;
  const pddRows = pddSkuRows(data);
  return {
    goods_id: product.goods_id,
    title: product.title,
    shopee_status: product.shopee_status,
    main_sku_code: product.main_sku_code,
    pdd_goods_url: product.pdd_goods_url,
    pdd_goods_id: pdd ? product.pdd_goods_id : null,
    state: productState(pdd, nowMs),
    pdd: pdd ? pddView(pdd, nowMs) : null,
    skus: skus.map((s) => ({
      sku_id: s.sku_id,
      spec_raw: s.spec_raw,
      color: s.color,
      size: s.size,
      advice: s.advice,
      parse_ok: s.parse_ok,
      is_manual: s.is_manual,
      sku_code: s.sku_code,
      mapping: mappings.get(s.sku_id) ?? null,
      pdd_sku: pddRows.find((r) => r.option_key === mappings.get(s.sku_id)?.pdd_option_key) ?? null,
    })),
    auto_mappable: data ? autoMappingsOf(skus, mappings, data).mappable.length : 0,
    created_at: product.created_at,
    updated_at: product.updated_at,
  };
}

/**
 * What the product page and the mapping board both read of one product: its current PDD goods
 * (if linked and not deleted), its SKUs in order, and their mappings to that goods — mappings are
 * always looked up under the product's current PDD goods (docs/architecture.md §5.2).
 */
export async function productParts(db: AdminDb, goodsId: string, pddGoodsId: string | null) {
  const pdd =
    pddGoodsId === null
      ? undefined
      : await db
          .selectFrom('pdd_products')
          .selectAll()
          .where('goods_id', '=', pddGoodsId)
          .where('deleted_at', 'is', null)
          .executeTakeFirst();
  const skus = await db
    .selectFrom('shopee_skus')
    .selectAll()
    .where('goods_id', '=', goodsId)
    .orderBy('sku_id')
    .execute();
  const mappings = pdd ? await currentMappings(db, goodsId, pdd.goods_id) : new Map<string, MappingView>();
  return { pdd, skus, mappings };
}

async function currentMappings(
  db: AdminDb,
  goodsId: string,
  currentPddGoodsId: string,
): Promise<Map<string, MappingView>> {
  const rows = await db
    .selectFrom('sku_mappings as m')
    .innerJoin('shopee_skus as k', 'k.sku_id', 'm.shopee_sku_id')
    .select(['m.shopee_sku_id', 'm.pdd_goods_id', 'm.pdd_options', 'm.pdd_option_key', 'm.mapped_at', 'm.mapped_by'])
    .where('k.goods_id', '=', goodsId)
    .where('m.pdd_goods_id', '=', currentPddGoodsId)
    .execute();
  return new Map(
    rows.map((r) => [
      r.shopee_sku_id,
      {
        pdd_goods_id: r.pdd_goods_id,
        pdd_options: JSON.parse(r.pdd_options) as Record<string, string>,
        pdd_option_key: r.pdd_option_key,
        mapped_at: r.mapped_at,
        mapped_by: r.mapped_by,
      },
    ]),
  );
}
