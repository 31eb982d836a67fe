import type { ImportFailedRow as FailedRow, ImportResult } from '../../domain/catalog-views';
import { searchTextOf } from '../../domain/catalog-search';
import { parseShopeeSpec } from '../../domain/shopee-spec';
import { nowUtc } from '../../domain/time';
import { sql } from 'kysely';
import type { AdminDb } from '../db/database';
import type { ShopeeProductsTable, ShopeeSkusTable } from '../db/tables/catalog';
import { badRequest, HttpError } from '../http/errors';
import { CatalogErrors } from './errors';
import { cellText, idCellText, readFirstSheet, WorkbookTooLarge, WorkbookUnreadable, type SheetRow } from './xlsx';

/** docs/architecture.md §5.2: columns are found by their trimmed header text, never by position. */
const REQUIRED_COLUMNS = ['商品ID', '商品名稱', '商品規格ID', '商品規格'] as const;
const OPTIONAL_COLUMNS = ['主商品貨號', '商品當前狀態', '商品選項貨號'] as const;
type Column = (typeof REQUIRED_COLUMNS)[number] | (typeof OPTIONAL_COLUMNS)[number];

type ProductRow = Pick<ShopeeProductsTable, 'goods_id' | 'title' | 'shopee_status' | 'main_sku_code'>;
type SkuRow = Pick<
  ShopeeSkusTable,
  'sku_id' | 'goods_id' | 'spec_raw' | 'color' | 'size' | 'advice' | 'parse_ok' | 'sku_code'
>;

export interface ParsedImport {
  present: ReadonlySet<Column>;
  products: Map<string, ProductRow & { row: number }>;
  skus: Map<string, SkuRow & { row: number }>;
  failed: FailedRow[];
}

const DIGITS = /^\d{1,30}$/;

const emptyWorkbook = () =>
  badRequest(CatalogErrors.EMPTY_WORKBOOK, 'the workbook has no rows; export the product list from Shopee again');

/**
 * Rows → what to write, one row at a time as the reader streams them, so only the compact
 * products and SKUs are held, never the sheet. Everything is validated before anything is
 * written.
 */
class ImportRows {
  private index: Map<string, number> | undefined;
  private present = new Set<Column>();
  readonly products = new Map<string, ProductRow & { row: number }>();
  readonly skus = new Map<string, SkuRow & { row: number }>();
  readonly failed: FailedRow[] = [];

  add(row: SheetRow): void {
    if (this.index === undefined) this.header(row);
    else this.data(row);
  }

  result(): ParsedImport {
    if (this.index === undefined) throw emptyWorkbook();
    return { present: this.present, products: this.products, skus: this.skus, failed: this.failed };
  }

  private header(header: SheetRow): void {
    const index = new Map<string, number>();
    header.values.forEach((v, i) => {
      const name = cellText(v).trim();
      if (name !== '' && !index.has(name)) index.set(name, i);
    });
    const missing = REQUIRED_COLUMNS.filter((c) => !index.has(c));
    if (missing.length > 0) {
      throw badRequest(
        CatalogErrors.MISSING_COLUMNS,
        `表头（第 ${header.number} 行）缺少必需的列：${missing.join('、')}；请上传虾皮后台导出的商品表`,
        {
          columns: missing,
        },
      );
    }
    this.index = index;
    this.present = new Set<Column>([...REQUIRED_COLUMNS, ...OPTIONAL_COLUMNS.filter((c) => index.has(c))]);
  }

  private at(row: SheetRow, col: Column) {
    const i = this.index!.get(col);
    return i === undefined ? undefined : row.values[i];
  }

  private optionalText(row: SheetRow, col: Column): string | null {
    if (!this.present.has(col)) return null;
    const t = cellText(this.at(row, col)).trim();
    return t === '' ? null : t;
  }

  private data(row: SheetRow): void {
    const { products, skus, failed } = this;
    if (row.values.every((v) => cellText(v).trim() === '')) return;
    const goodsId = idCellText(this.at(row, '商品ID'));
    if (goodsId === null || goodsId === '') {
      failed.push({ row: row.number, reason: goodsId === null ? '商品ID 不是精确的整数' : '商品ID 为空' });
      return;
    }
    if (!DIGITS.test(goodsId)) {
      failed.push({ row: row.number, reason: `商品ID「${goodsId}」不是数字` });
      return;
    }
    const skuCell = idCellText(this.at(row, '商品規格ID'));
    if (skuCell === null) {
      failed.push({ row: row.number, reason: '商品規格ID 不是精确的整数' });
      return;
    }
    if (skuCell === '' || skuCell === '-') {
      const title = cellText(this.at(row, '商品名稱')).trim();
      if (title === '') {
        failed.push({ row: row.number, reason: `商品 ${goodsId} 的商品名稱为空` });
        return;
      }
      const first = products.get(goodsId);
      if (first) {
        failed.push({ row: row.number, reason: `商品ID ${goodsId} 重复，已按第 ${first.row} 行导入` });
        return;
      }
      products.set(goodsId, {
        row: row.number,
        goods_id: goodsId,
        title,
        shopee_status: this.optionalText(row, '商品當前狀態'),
        main_sku_code: this.optionalText(row, '主商品貨號'),
      });
      return;
    }
    if (!DIGITS.test(skuCell)) {
      failed.push({ row: row.number, reason: `商品規格ID「${skuCell}」既不是数字也不是 -` });
      return;
    }
    const first = skus.get(skuCell);
    if (first) {
      failed.push({ row: row.number, reason: `商品規格ID ${skuCell} 重复，已按第 ${first.row} 行导入` });
      return;
    }
    const specRaw = cellText(this.at(row, '商品規格'));
    const spec = parseShopeeSpec(specRaw);
    skus.set(skuCell, {
      row: row.number,
      sku_id: skuCell,
      goods_id: goodsId,
      spec_raw: specRaw,
      color: spec.ok ? spec.color : null,
      size: spec.ok ? spec.size : null,
      advice: spec.ok ? spec.advice : null,
      parse_ok: spec.ok ? 1 : 0,
      sku_code: this.optionalText(row, '商品選項貨號'),
    });
    if (!spec.ok)
      failed.push({
        row: row.number,
        reason: `规格「${specRaw}」无法解析：${spec.reason}（已导入，需人工补全颜色和尺码）`,
        sku_id: skuCell,
      });
  }
}

export async function readImport(bytes: Buffer): Promise<ParsedImport> {
  const rows = new ImportRows();
  let sheet: Awaited<ReturnType<typeof readFirstSheet>>;
  try {
    sheet = await readFirstSheet(bytes, (row) => rows.add(row));
  } catch (err) {
    if (err instanceof WorkbookUnreadable) {
      throw badRequest(
        CatalogErrors.INVALID_XLSX,
        'the file is not a readable xlsx workbook; upload the .xlsx that Shopee exports',
      );
    }
    if (err instanceof WorkbookTooLarge) {
      // Refused before anything is written: the import is all or nothing.
      if (err.limit === 'unpacked') throw new HttpError(413, CatalogErrors.IMPORT_UNPACKED_TOO_LARGE, err.message);
      if (err.limit === 'strings') throw new HttpError(413, CatalogErrors.IMPORT_TOO_MANY_STRINGS, err.message);
      const details = err.row === undefined ? undefined : { row: err.row };
      if (err.limit === 'rows')
        throw badRequest(CatalogErrors.IMPORT_TOO_MANY_ROWS, `${err.message}; split the export`, details);
      throw badRequest(
        CatalogErrors.IMPORT_CELL_TOO_LONG,
        `${err.message}; no Shopee field is that long — check the file`,
        details,
      );
    }
    throw err;
  }
  if (sheet.sheets === 0 || sheet.rows === 0) throw emptyWorkbook();
  return rows.result();
}

const CHUNK = 1000;
function chunks<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
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

  // A SKU needs its product: in this file or already stored. Otherwise report, never invent one.
  const orphanGoods = [
    ...new Set([...parsed.skus.values()].map((s) => s.goods_id).filter((g) => !parsed.products.has(g))),
  ];
  const known = new Set<string>();
  for (const part of chunks(orphanGoods)) {
    const rows = await trx.selectFrom('shopee_products').select('goods_id').where('goods_id', 'in', part).execute();
    rows.forEach((r) => known.add(r.goods_id));
  }
  const dropped = new Set<string>();
  const skus = [...parsed.skus.values()].filter((s) => {
    if (parsed.products.has(s.goods_id) || known.has(s.goods_id)) return true;
    dropped.add(s.sku_id);
    return false;
  });
  // a row that was not imported is reported once, saying so (not also as a spec failure)
  const reported = failed.filter((f) => f.sku_id === undefined || !dropped.has(f.sku_id));
  for (const s of parsed.skus.values()) {
    if (dropped.has(s.sku_id))
      reported.push({ row: s.row, reason: `商品 ${s.goods_id} 没有商品汇总行（商品規格ID 为 - 的行），此 SKU 未导入` });
  }

  // One JSON parameter per batch, unpacked by SQLite's json_each: a 100,000-row import builds
  // no per-value query nodes, which kept the admin's heap ~100 MiB larger while it wrote.
  const { present } = parsed;
  const setIf = (column: Column, field: string) => (present.has(column) ? `${field} = excluded.${field},` : '');
  const field = (name: string) => sql.raw(`json_extract(j.value, '$.${name}')`);
  for (const part of chunks([...parsed.products.values()])) {
    const json = JSON.stringify(
      part.map((p) => ({
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
        ${sql.raw(setIf('商品當前狀態', 'shopee_status'))} ${sql.raw(setIf('主商品貨號', 'main_sku_code'))}
        updated_at = excluded.updated_at`.execute(trx);
  }

  let manualKept = 0;
  for (const part of chunks(skus)) {
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
