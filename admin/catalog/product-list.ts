import { staleBefore, type ProductState } from '../../domain/catalog';
import { foldForSearch } from '../../domain/catalog-search';
import type { ProductListItem } from '../../domain/catalog-views';
import type { Page } from '../../domain/page';
import type { AdminDb } from '../db/database';
import { containsText } from '../db/like';
import { collectStateIs, decodeCursor, encodeCursor } from './common';
import { productState } from './pdd-view';

export interface ProductListQuery {
  q?: string | undefined;
  state?: ProductState | undefined;
  parse_failed?: boolean | undefined;
  cursor?: string | undefined;
  limit: number;
}

/** 商品 list: keyset by goods_id; the five states and parse failures as filters. */
export async function listShopeeProducts(
  db: AdminDb,
  query: ProductListQuery,
  nowMs = Date.now(),
): Promise<Page<ProductListItem>> {
  const after = decodeCursor(query.cursor);
  const filtered = filteredProducts(db, query, staleBefore(nowMs));
  const counted = await filtered.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  let qb = withListColumns(filtered);
  if (after !== undefined) qb = qb.where('sp.goods_id', '>', after);
  const rows = await qb
    .orderBy('sp.goods_id')
    .limit(query.limit + 1)
    .execute();
  const page = rows.slice(0, query.limit);
  const last = page[page.length - 1];
  return {
    items: page.map((r) => ({
      goods_id: r.goods_id,
      title: r.title,
      shopee_status: r.shopee_status,
      main_sku_code: r.main_sku_code,
      pdd_goods_id: r.pdd_row_id === null ? null : r.pdd_goods_id,
      state: productState(
        r.collect_status === null || r.pdd_updated_at === null
          ? undefined
          : { collect_status: r.collect_status, updated_at: r.pdd_updated_at, deleted_at: r.pdd_deleted_at },
        nowMs,
      ),
      sku_count: Number(r.sku_count ?? 0),
      parse_failed_count: Number(r.parse_failed_count ?? 0),
      mapped_count: Number(r.mapped_count ?? 0),
      updated_at: r.updated_at,
    })),
    next_cursor: rows.length > query.limit && last ? encodeCursor(last.goods_id) : null,
    total: Number(counted.n),
  };
}

/** The products the query's search text, state and parse-failure filters let through. */
function filteredProducts(db: AdminDb, query: ProductListQuery, stale: string) {
  let filtered = db
    .selectFrom('shopee_products as sp')
    .leftJoin('pdd_products as p', (j) => j.onRef('p.goods_id', '=', 'sp.pdd_goods_id').on('p.deleted_at', 'is', null));
  const q = query.q?.trim();
  if (q) {
    const folded = foldForSearch(q);
    filtered = filtered.where((eb) =>
      eb.or([
        eb('sp.goods_id', '=', q),
        eb('sp.pdd_goods_id', '=', q),
        containsText(eb, 'sp.title', q),
        containsText(eb, 'sp.search_text', folded),
        containsText(eb, 'sp.main_sku_code', q),
        eb.exists(
          eb
            .selectFrom('shopee_skus as k')
            .whereRef('k.goods_id', '=', 'sp.goods_id')
            .where('k.sku_id', '=', q)
            .select('k.sku_id'),
        ),
      ]),
    );
  }
  switch (query.state) {
    case 'unlinked':
      filtered = filtered.where('p.id', 'is', null);
      break;
    case 'pending':
    case 'collected':
    case 'collecting':
    case 'failed':
      filtered = filtered.where(collectStateIs(query.state, stale));
      break;
    case undefined:
      break;
  }
  if (query.parse_failed) {
    filtered = filtered.where((eb) =>
      eb.exists(
        eb
          .selectFrom('shopee_skus as k')
          .whereRef('k.goods_id', '=', 'sp.goods_id')
          .where('k.parse_ok', '=', 0)
          .select('k.sku_id'),
      ),
    );
  }
  return filtered;
}

/** A list row: the product, its PDD goods' collect state, and its SKU, parse-failure and mapping counts. */
function withListColumns(filtered: ReturnType<typeof filteredProducts>) {
  return filtered
    .select([
      'sp.goods_id',
      'sp.title',
      'sp.shopee_status',
      'sp.main_sku_code',
      'sp.pdd_goods_id',
      'sp.updated_at',
      'p.collect_status',
      'p.updated_at as pdd_updated_at',
      'p.deleted_at as pdd_deleted_at',
      'p.id as pdd_row_id',
    ])
    .select((eb) => [
      eb
        .selectFrom('shopee_skus as k')
        .whereRef('k.goods_id', '=', 'sp.goods_id')
        .select((e) => e.fn.countAll<number>().as('n'))
        .as('sku_count'),
      eb
        .selectFrom('shopee_skus as k')
        .whereRef('k.goods_id', '=', 'sp.goods_id')
        .where('k.parse_ok', '=', 0)
        .select((e) => e.fn.countAll<number>().as('n'))
        .as('parse_failed_count'),
      eb
        .selectFrom('sku_mappings as m')
        .innerJoin('shopee_skus as k', 'k.sku_id', 'm.shopee_sku_id')
        .whereRef('k.goods_id', '=', 'sp.goods_id')
        .whereRef('m.pdd_goods_id', '=', 'sp.pdd_goods_id')
        .select((e) => e.fn.countAll<number>().as('n'))
        .as('mapped_count'),
    ]);
}
