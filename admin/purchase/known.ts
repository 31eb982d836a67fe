import { isInferredPrice, skusJsonSchema } from '../../domain/collect';
import type { DraftRefusal } from '../../domain/syb';
import { resolveMapping } from '../catalog/mappings';
import type { AdminDb } from '../db/database';
import { conflict, notFound } from '../../domain/api-error';
import { readIntSetting } from './settings';

/** A purchase as the admin already knows it for one Shopee SKU: ready to become a draft. */
export interface KnownPurchase {
  pdd_goods_id: string;
  pdd_goods_url: string;
  /** the PDD panel's dimension names → the mapped values */
  pdd_options: Record<string, string>;
  quantity: number;
  /** collected price × quantity + `safety.price_tolerance_cent` */
  max_total_price_cent: number;
  /** the collected price is 推测价格 (not read on this combination): the cap is a guess */
  price_inferred: boolean;
  title: string | null;
}

export class UnknownPurchase extends Error {
  constructor(
    readonly code: Extract<DraftRefusal, 'NO_PDD_LINK' | 'NO_MAPPING' | 'OPTION_UNAVAILABLE' | 'PRICE_UNKNOWN'>,
  ) {
    super(code);
  }
}

/**
 * What to buy for a Shopee SKU, from its product's **current** PDD goods, the SKU's mapping
 * under that goods and the last collect — the one place that turns a mapping into a purchase
 * (the 采购 form's pre-fill and the 顺运宝 order-line drafts). A switched goods never inherits
 * the old goods' options. Throws UnknownPurchase with the reason when something is missing.
 */
export async function knownPurchase(db: AdminDb, skuId: string, quantity: number): Promise<KnownPurchase> {
  const goods = await db
    .selectFrom('shopee_skus as k')
    .innerJoin('shopee_products as sp', 'sp.goods_id', 'k.goods_id')
    .innerJoin('pdd_products as p', (j) => j.onRef('p.goods_id', '=', 'sp.pdd_goods_id').on('p.deleted_at', 'is', null))
    .select(['p.goods_id as pdd_goods_id', 'p.url', 'p.skus_json', 'p.title'])
    .where('k.sku_id', '=', skuId)
    .executeTakeFirst();
  if (!goods) throw new UnknownPurchase('NO_PDD_LINK');
  const mapping = await resolveMapping(db, skuId);
  if (!mapping || mapping.pdd_goods_id !== goods.pdd_goods_id) throw new UnknownPurchase('NO_MAPPING');
  if (!mapping.pdd_sku || !mapping.pdd_sku.available) throw new UnknownPurchase('OPTION_UNAVAILABLE');
  if (mapping.pdd_sku.price_cent === null) throw new UnknownPurchase('PRICE_UNKNOWN');

  // The mapping stores dimension keys (color, size, …); the PDD panel is driven by dimension names.
  const collected = goods.skus_json ? skusJsonSchema.safeParse(JSON.parse(goods.skus_json)) : undefined;
  if (!collected?.success) throw new UnknownPurchase('OPTION_UNAVAILABLE');
  const names = new Map(collected.data.dimensions.map((d) => [d.key, d.name]));
  const options: Record<string, string> = {};
  for (const [key, value] of Object.entries(mapping.pdd_options)) {
    const name = names.get(key);
    if (!name) throw new UnknownPurchase('OPTION_UNAVAILABLE');
    options[name] = value;
  }
  const tolerance = await readIntSetting(db, 'safety.price_tolerance_cent');
  return {
    pdd_goods_id: goods.pdd_goods_id,
    pdd_goods_url: goods.url,
    pdd_options: options,
    quantity,
    max_total_price_cent: mapping.pdd_sku.price_cent * quantity + tolerance,
    price_inferred: isInferredPrice(mapping.pdd_sku),
    title: goods.title,
  };
}

/** The same, for a route: the reason becomes a 409 with its code (domain/api-errors.ts). */
export async function knownPurchaseOrRefuse(db: AdminDb, skuId: string, quantity: number): Promise<KnownPurchase> {
  const sku = await db.selectFrom('shopee_skus').select('sku_id').where('sku_id', '=', skuId).executeTakeFirst();
  if (!sku) throw notFound('SHOPEE_SKU_NOT_FOUND', `no Shopee SKU ${skuId}`);
  try {
    return await knownPurchase(db, skuId, quantity);
  } catch (err) {
    if (err instanceof UnknownPurchase)
      throw conflict(err.code, `no purchase is known for Shopee SKU ${skuId}: ${err.code}`);
    throw err;
  }
}
