import { foldForSearch } from '../../domain/catalog-search';
import { optionWarnings, type MappingBoard, type MappingSaved } from '../../domain/catalog-views';
import type { CollectedSku } from '../../domain/collect';
import { optionKey, type Options } from '../../domain/option-key';
import { nowUtc } from '../../domain/time';
import { writeTransaction, type AdminDb } from '../db/database';
import { invalidInput, conflict, notFound } from '../../domain/api-error';
import type { AuditHook } from './common';
import { CatalogErrors } from './errors';
import { collected, pddSkuRows } from './pdd-view';
import { productParts } from './products';

/**
 * docs/architecture.md §5.2: a mapping is keyed (shopee_sku_id, pdd_goods_id) and every lookup is scoped to
 * the Shopee product's *current* PDD goods. Switching PDD goods hides the old mappings
 * without deleting them; switching back shows them again. The option key is optionKey()
 * from domain/ — the one implementation.
 */

/** The Shopee SKU's product and its current (live) PDD goods, or why there is none. */
async function currentGoods(db: AdminDb, skuId: string) {
  const row = await db
    .selectFrom('shopee_skus as k')
    .innerJoin('shopee_products as sp', 'sp.goods_id', 'k.goods_id')
    .leftJoin('pdd_products as p', (j) => j.onRef('p.goods_id', '=', 'sp.pdd_goods_id').on('p.deleted_at', 'is', null))
    .select(['k.sku_id', 'k.goods_id', 'p.goods_id as pdd_goods_id', 'p.skus_json'])
    .where('k.sku_id', '=', skuId)
    .executeTakeFirst();
  if (!row) throw notFound(CatalogErrors.SHOPEE_SKU_NOT_FOUND, `no Shopee SKU ${skuId}`);
  return row;
}

export interface ResolvedMapping {
  shopee_sku_id: string;
  pdd_goods_id: string;
  pdd_options: Options;
  /** the PDD row as last collected, or null when the goods no longer offers this combination */
  pdd_sku: CollectedSku | null;
}

/** The mapping a purchase would use for this Shopee SKU, under its product's current PDD goods. */
export async function resolveMapping(db: AdminDb, skuId: string): Promise<ResolvedMapping | null> {
  const cur = await currentGoods(db, skuId);
  if (cur.pdd_goods_id === null) return null;
  const m = await db
    .selectFrom('sku_mappings')
    .select(['pdd_option_key', 'pdd_options'])
    .where('shopee_sku_id', '=', skuId)
    .where('pdd_goods_id', '=', cur.pdd_goods_id)
    .executeTakeFirst();
  if (!m) return null;
  const data = collected(cur.skus_json);
  const pddSku = data?.skus.find((s) => optionKey(s.options) === m.pdd_option_key) ?? null;
  return {
    shopee_sku_id: skuId,
    pdd_goods_id: cur.pdd_goods_id,
    pdd_options: JSON.parse(m.pdd_options) as Options,
    pdd_sku: pddSku,
  };
}

/** Everything the mapping dialog shows: Shopee SKUs beside the PDD rows, with suggestions. */
export async function mappingBoard(db: AdminDb, goodsId: string): Promise<MappingBoard> {
  const product = await db
    .selectFrom('shopee_products')
    .select(['goods_id', 'title', 'pdd_goods_id'])
    .where('goods_id', '=', goodsId)
    .executeTakeFirst();
  if (!product) throw notFound(CatalogErrors.SHOPEE_PRODUCT_NOT_FOUND, `no Shopee product ${goodsId}`);
  const { pdd, skus, mappings } = await productParts(db, goodsId, product.pdd_goods_id);
  const data = pdd ? collected(pdd.skus_json) : null;
  const pddSkus = pddSkuRows(data);
  return {
    goods_id: product.goods_id,
    title: product.title,
    pdd_goods_id: pdd ? pdd.goods_id : null,
    pdd_title: pdd?.title ?? null,
    collect_status: pdd?.collect_status ?? null,
    dimensions: data?.dimensions ?? [],
    price_granularity: data?.price_granularity ?? null,
    pdd_skus: pddSkus,
    shopee_skus: skus.map((k) => {
      const mapping = mappings.get(k.sku_id) ?? null;
      return {
        sku_id: k.sku_id,
        spec_raw: k.spec_raw,
        color: k.color,
        size: k.size,
        advice: k.advice,
        parse_ok: k.parse_ok,
        is_manual: k.is_manual,
        mapping,
        mapping_missing: mapping !== null && !pddSkus.some((p) => p.option_key === mapping.pdd_option_key),
        suggestions: suggest(k.color, k.size, pddSkus),
      };
    }),
  };
}

/**
 * 文字一致: a PDD row whose option values include the SKU's colour and size as text, compared the
 * way search compares (domain/catalog-search.ts: 紅色 and 红色 are the same text); never a guess
 * at meaning.
 */
function suggest(
  color: string | null,
  size: string | null,
  rows: ReadonlyArray<{ options: Options; option_key: string }>,
): string[] {
  if (!color || !size) return [];
  return rows
    .filter((r) => {
      const values = Object.values(r.options).map((v) => foldForSearch(v.trim()));
      return values.includes(foldForSearch(color.trim())) && values.includes(foldForSearch(size.trim()));
    })
    .map((r) => r.option_key);
}

/**
 * Map one Shopee SKU to one option combination of its product's current PDD goods. An option
 * out of stock or without a price is mapped all the same (stock and prices change), and the
 * answer's `warnings` say so.
 */
export async function setMapping(
  db: AdminDb,
  skuId: string,
  options: Options,
  mappedBy: string | null,
  audit: AuditHook,
): Promise<MappingSaved> {
  return writeTransaction(db, (trx) => writeMapping(trx, skuId, options, mappedBy, audit));
}

/** setMapping inside a write transaction the caller holds (several mappings in one go). */
export async function writeMapping(
  trx: AdminDb,
  skuId: string,
  options: Options,
  mappedBy: string | null,
  audit: AuditHook,
): Promise<MappingSaved> {
  const cur = await currentGoods(trx, skuId);
  if (cur.pdd_goods_id === null)
    throw conflict(CatalogErrors.PDD_NOT_LINKED, 'the product has no PDD goods; paste its PDD link first');
  const data = collected(cur.skus_json);
  if (!data || data.skus.length === 0)
    throw conflict(CatalogErrors.PDD_NOT_COLLECTED, 'the PDD goods has not been collected; collect it first');
  const key = optionKey(options);
  const row = data.skus.find((s) => optionKey(s.options) === key);
  if (!row)
    throw invalidInput(
      CatalogErrors.PDD_OPTION_UNKNOWN,
      'the PDD goods has no such option combination; pick one from the list',
      { options },
    );
  const previous = await trx
    .selectFrom('sku_mappings')
    .select(['pdd_options'])
    .where('shopee_sku_id', '=', skuId)
    .where('pdd_goods_id', '=', cur.pdd_goods_id)
    .executeTakeFirst();
  const values = {
    pdd_option_key: key,
    pdd_options: JSON.stringify(row.options),
    goods_id: cur.goods_id,
    mapped_at: nowUtc(),
    mapped_by: mappedBy,
  };
  await trx
    .insertInto('sku_mappings')
    .values({ shopee_sku_id: skuId, pdd_goods_id: cur.pdd_goods_id, ...values })
    .onConflict((oc) => oc.columns(['shopee_sku_id', 'pdd_goods_id']).doUpdateSet(values))
    .execute();
  const warnings = optionWarnings(row);
  await audit(trx, {
    action: 'sku_mapping.set',
    target: { kind: 'shopee_sku', id: skuId },
    details: {
      pdd_goods_id: cur.pdd_goods_id,
      pdd_options: row.options,
      previous: previous ? (JSON.parse(previous.pdd_options) as unknown) : null,
      warnings,
    },
  });
  return {
    shopee_sku_id: skuId,
    pdd_goods_id: cur.pdd_goods_id,
    pdd_options: row.options,
    pdd_option_key: key,
    warnings,
  };
}

/** Removes the mapping under the current PDD goods only; other goods' mappings stay. */
export async function clearMapping(db: AdminDb, skuId: string, audit: AuditHook): Promise<{ deleted: boolean }> {
  return writeTransaction(db, async (trx) => {
    const cur = await currentGoods(trx, skuId);
    if (cur.pdd_goods_id === null) return { deleted: false };
    const res = await trx
      .deleteFrom('sku_mappings')
      .where('shopee_sku_id', '=', skuId)
      .where('pdd_goods_id', '=', cur.pdd_goods_id)
      .executeTakeFirst();
    const deleted = Number(res.numDeletedRows) > 0;
    if (deleted)
      await audit(trx, {
        action: 'sku_mapping.clear',
        target: { kind: 'shopee_sku', id: skuId },
        details: { pdd_goods_id: cur.pdd_goods_id },
      });
    return { deleted };
  });
}
