import { staleBefore, type ProductState } from '../../domain/catalog';
import { foldForSearch } from '../../domain/catalog-search';
import type { MappingView, ProductDetailView, ProductListItem } from '../../domain/catalog-views';
import type { Page } from '../../domain/page';
import { parsePddGoodsId } from '../../domain/pdd-url';
import { nowUtc } from '../../domain/time';
import { writeTransaction, type AdminDb } from '../db/database';
import { badRequest, conflict, notFound } from '../http/errors';
import { containsText } from '../db/like';
import { collectStateIs, decodeCursor, encodeCursor, type AuditHook } from './common';
import { CatalogErrors } from './errors';
import { pddView, productState } from './pdd-view';

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
  const stale = staleBefore(nowMs);
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
  const counted = await filtered.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  let qb = filtered
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

/** One product with its SKUs, each with its mapping under the product's *current* PDD goods. */
export async function getShopeeProduct(db: AdminDb, goodsId: string, nowMs = Date.now()): Promise<ProductDetailView> {
  const product = await db.selectFrom('shopee_products').selectAll().where('goods_id', '=', goodsId).executeTakeFirst();
  if (!product) throw notFound(CatalogErrors.SHOPEE_PRODUCT_NOT_FOUND, `no Shopee product ${goodsId}; import it first`);
  const { pdd, skus, mappings } = await productParts(db, goodsId, product.pdd_goods_id);
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
    })),
    created_at: product.created_at,
    updated_at: product.updated_at,
  };
}

/** docs/architecture.md §5.2: mappings are always looked up under the product's current PDD goods. */
/**
 * What the product page and the mapping board both read of one product: its current PDD goods
 * (if linked and not deleted), its SKUs in order, and their mappings to that goods.
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
  const parsed = parsePddGoodsId(pasted);
  if (!parsed.ok) {
    throw parsed.reason === 'AMBIGUOUS_GOODS_ID'
      ? badRequest(
          CatalogErrors.PDD_URL_AMBIGUOUS,
          'the text names more than one PDD goods; paste the link of one goods only',
        )
      : badRequest(
          CatalogErrors.PDD_URL_NO_GOODS_ID,
          'no goods_id in the pasted text; paste the full PDD goods link (it contains goods_id=…)',
        );
  }
  const pddGoodsId = parsed.goodsId;
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
    const existing = await trx
      .selectFrom('pdd_products')
      .select(['id', 'deleted_at'])
      .where('goods_id', '=', pddGoodsId)
      .executeTakeFirst();
    let revived = false;
    if (!existing) {
      await trx
        .insertInto('pdd_products')
        .values({ goods_id: pddGoodsId, url, collect_status: 'pending', created_at: now, updated_at: now })
        .execute();
    } else if (existing.deleted_at !== null) {
      revived = true;
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
    }
    await trx
      .updateTable('shopee_products')
      .set({ pdd_goods_url: url, pdd_goods_id: pddGoodsId, updated_at: now })
      .where('goods_id', '=', goodsId)
      .execute();
    await audit(trx, {
      action: 'shopee.pdd_link.set',
      target: { kind: 'shopee_product', id: goodsId },
      details: { pdd_goods_id: pddGoodsId, previous_pdd_goods_id: product.pdd_goods_id, revived, created: !existing },
    });
    return { pdd_goods_id: pddGoodsId, revived, created: !existing };
  });
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
