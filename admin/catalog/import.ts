import { setImmediate } from 'node:timers/promises';
import type { ImportResult } from '../../domain/catalog-views';
import { searchTextOf } from '../../domain/catalog-search';
import { nowUtc } from '../../domain/time';
import { sql } from 'kysely';
import type { AdminDb } from '../db/database';
import type { Column, ParsedImport } from './import-read';

const CHUNK = 1000;

/**
 * A turn of the event loop. The write is one transaction of many statements (all or nothing);
 * between them the admin answers its other requests: those on its read connection at once,
 * those on its write connection after the commit. Written in one go, a 100,000-row import held
 * the event loop for over a second; in turns, for a chunk's statement at a time.
 */
const nextTurn = () => setImmediate();

/** The items a chunk at a time, each in a turn of its own. */
async function* inTurns<T>(items: T[]): AsyncGenerator<T[]> {
  for (let i = 0; i < items.length; i += CHUNK) {
    await nextTurn();
    yield items.slice(i, i + CHUNK);
  }
}

/**
 * docs/architecture.md §5.2: upsert, never clear. The operator's columns (pdd_goods_url,
 * pdd_goods_id), PDD data, mappings and manual SKUs are never touched, nothing is deleted,
 * and an optional column absent from the file leaves the stored value alone. Runs inside
 * the caller's write transaction.
 */
export async function writeImport(trx: AdminDb, parsed: ParsedImport): Promise<ImportResult> {
  const now = nowUtc();
  const failed = parsed.failed;

  // A SKU needs its product: in this file (its own row, or made from its SKU rows) or already
  // stored. Otherwise report, never invent one.
  const known = new Set<string>();
  for await (const part of inTurns(parsed.orphanGoods)) {
    const rows = await trx.selectFrom('shopee_products').select('goods_id').where('goods_id', 'in', part).execute();
    rows.forEach((r) => known.add(r.goods_id));
  }
  const dropped = new Set(parsed.orphanGoods.filter((g) => !known.has(g)));
  const all = [...parsed.skus.values()];
  const skus = dropped.size === 0 ? all : all.filter((s) => !dropped.has(s.goods_id));
  // a row that was not imported is reported once, saying so (not also as a spec failure)
  const droppedSku = (skuId: string | undefined) =>
    skuId !== undefined && dropped.has(parsed.skus.get(skuId)?.goods_id ?? '');
  const reported = dropped.size === 0 ? [...failed] : failed.filter((f) => !droppedSku(f.sku_id));
  if (dropped.size > 0)
    for (const s of all)
      if (dropped.has(s.goods_id))
        reported.push({
          row: s.row,
          reason: `商品 ${s.goods_id} 的商品名稱为空，表里也没有它的商品行（商品規格ID 为 -），此 SKU 未导入`,
        });
  await nextTurn();

  await writeProducts(trx, parsed, now);

  const { present } = parsed;
  const setIf = (column: Column, field: string) => (present.has(column) ? `${field} = excluded.${field},` : '');
  const field = (name: string) => sql.raw(`json_extract(j.value, '$.${name}')`);

  let manualKept = 0;
  for await (const part of inTurns(skus)) {
    const json = JSON.stringify(
      part.map((s) => ({
        sku_id: s.sku_id,
        goods_id: s.goods_id,
        spec_raw: s.spec_raw,
        color: s.color,
        size: s.size,
        advice: s.advice,
        parse_ok: s.parse_ok,
        sku_code: s.sku_code,
      })),
    );
    const manual = await sql<{ n: number }>`select count(*) as n from shopee_skus
      where is_manual = 1 and sku_id in (select ${field('sku_id')} from json_each(${json}) j)`.execute(trx);
    manualKept += Number(manual.rows[0]?.n ?? 0);
    await sql`insert into shopee_skus
        (sku_id, goods_id, spec_raw, color, size, advice, parse_ok, sku_code, is_manual, created_at, updated_at)
      select ${field('sku_id')}, ${field('goods_id')}, ${field('spec_raw')}, ${field('color')}, ${field('size')},
        ${field('advice')}, ${field('parse_ok')}, ${field('sku_code')}, 0, ${now}, ${now}
      from json_each(${json}) j where true
      on conflict (sku_id) do update set goods_id = excluded.goods_id, spec_raw = excluded.spec_raw,
        color = excluded.color, size = excluded.size, advice = excluded.advice, parse_ok = excluded.parse_ok,
        ${sql.raw(setIf('商品選項貨號', 'sku_code'))} updated_at = excluded.updated_at
      where shopee_skus.is_manual = 0`.execute(trx);
  }

  return {
    products: parsed.products.size,
    skus: skus.length,
    failed_rows: reported.sort((a, b) => a.row - b.row),
    manual_kept: manualKept,
  };
}

/**
 * The products, in turns. A product with its own row sets each field its file has a column
 * for; one made from its SKU rows (`derived`) sets its title and only the fields those rows
 * filled: a file without the product's row says nothing of the rest, so nothing stored is
 * blanked. Neither touches the operator's columns.
 */
async function writeProducts(trx: AdminDb, parsed: ParsedImport, now: string): Promise<void> {
  // One JSON parameter per batch, unpacked by SQLite's json_each: a 100,000-row import builds
  // no per-value query nodes, which kept the admin's heap ~100 MiB larger while it wrote.
  const { present } = parsed;
  const field = (name: string) => sql.raw(`json_extract(j.value, '$.${name}')`);
  const setIf = (column: Column, name: string) => (present.has(column) ? `${name} = excluded.${name},` : '');
  const setFromRow = sql.raw(setIf('商品當前狀態', 'shopee_status') + setIf('主商品貨號', 'main_sku_code'));
  const setFromSkus = sql.raw(`shopee_status = coalesce(excluded.shopee_status, shopee_products.shopee_status),
    main_sku_code = coalesce(excluded.main_sku_code, shopee_products.main_sku_code),`);
  for await (const part of inTurns([...parsed.products.values()])) {
    for (const derived of [false, true]) {
      const these = part.filter((p) => (p.derived === true) === derived);
      if (these.length === 0) continue;
      const json = JSON.stringify(
        these.map((p) => ({
          goods_id: p.goods_id,
          title: p.title,
          search_text: searchTextOf(p.title),
          shopee_status: p.shopee_status,
          main_sku_code: p.main_sku_code,
        })),
      );
      await sql`insert into shopee_products
          (goods_id, title, search_text, shopee_status, main_sku_code, pdd_goods_url, pdd_goods_id, created_at, updated_at)
        select ${field('goods_id')}, ${field('title')}, ${field('search_text')}, ${field('shopee_status')},
          ${field('main_sku_code')}, null, null, ${now}, ${now}
        from json_each(${json}) j where true
        on conflict (goods_id) do update set title = excluded.title, search_text = excluded.search_text,
          ${derived ? setFromSkus : setFromRow} updated_at = excluded.updated_at`.execute(trx);
    }
  }
}
