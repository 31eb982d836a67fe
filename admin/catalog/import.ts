import type { ImportFailedRow as FailedRow, ImportResult } from '../../domain/catalog-views';
import { searchTextOf } from '../../domain/catalog-search';
import { parseShopeeSpec } from '../../domain/shopee-spec';
import { nowUtc } from '../../domain/time';
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

/** Pure: rows → what to write. Everything is validated before anything is written. */
function parseImportRows(rows: SheetRow[]): ParsedImport {
  const [header, ...data] = rows;
  if (!header)
    throw badRequest(
      CatalogErrors.EMPTY_WORKBOOK,
      'the workbook has no rows; export the product list from Shopee again',
    );
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
  const present = new Set<Column>([...REQUIRED_COLUMNS, ...OPTIONAL_COLUMNS.filter((c) => index.has(c))]);
  const at = (row: SheetRow, col: Column) => {
    const i = index.get(col);
    return i === undefined ? undefined : row.values[i];
  };
  const optionalText = (row: SheetRow, col: Column): string | null => {
    if (!present.has(col)) return null;
    const t = cellText(at(row, col)).trim();
    return t === '' ? null : t;
  };

  const products = new Map<string, ProductRow & { row: number }>();
  const skus = new Map<string, SkuRow & { row: number }>();
  const failed: FailedRow[] = [];

  for (const row of data) {
    if (row.values.every((v) => cellText(v).trim() === '')) continue;
    const goodsId = idCellText(at(row, '商品ID'));
    if (goodsId === null || goodsId === '') {
      failed.push({ row: row.number, reason: goodsId === null ? '商品ID 不是精确的整数' : '商品ID 为空' });
      continue;
    }
    if (!DIGITS.test(goodsId)) {
      failed.push({ row: row.number, reason: `商品ID「${goodsId}」不是数字` });
      continue;
    }
    const skuCell = idCellText(at(row, '商品規格ID'));
    if (skuCell === null) {
      failed.push({ row: row.number, reason: '商品規格ID 不是精确的整数' });
      continue;
    }
    if (skuCell === '' || skuCell === '-') {
      const title = cellText(at(row, '商品名稱')).trim();
      if (title === '') {
        failed.push({ row: row.number, reason: `商品 ${goodsId} 的商品名稱为空` });
        continue;
      }
      const first = products.get(goodsId);
      if (first) {
        failed.push({ row: row.number, reason: `商品ID ${goodsId} 重复，已按第 ${first.row} 行导入` });
        continue;
      }
      products.set(goodsId, {
        row: row.number,
        goods_id: goodsId,
        title,
        shopee_status: optionalText(row, '商品當前狀態'),
        main_sku_code: optionalText(row, '主商品貨號'),
      });
      continue;
    }
    if (!DIGITS.test(skuCell)) {
      failed.push({ row: row.number, reason: `商品規格ID「${skuCell}」既不是数字也不是 -` });
      continue;
    }
    const first = skus.get(skuCell);
    if (first) {
      failed.push({ row: row.number, reason: `商品規格ID ${skuCell} 重复，已按第 ${first.row} 行导入` });
      continue;
    }
    const specRaw = cellText(at(row, '商品規格'));
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
      sku_code: optionalText(row, '商品選項貨號'),
    });
    if (!spec.ok)
      failed.push({
        row: row.number,
        reason: `规格「${specRaw}」无法解析：${spec.reason}（已导入，需人工补全颜色和尺码）`,
        sku_id: skuCell,
      });
  }
  return { present, products, skus, failed };
}

export async function readImport(bytes: Buffer): Promise<ParsedImport> {
  let sheet: Awaited<ReturnType<typeof readFirstSheet>>;
  try {
    sheet = await readFirstSheet(bytes);
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
  if (sheet.sheets === 0 || sheet.rows.length === 0) {
    throw badRequest(
      CatalogErrors.EMPTY_WORKBOOK,
      'the workbook has no rows; export the product list from Shopee again',
    );
  }
  return parseImportRows(sheet.rows);
}

const CHUNK = 300;
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

  const { present } = parsed;
  for (const part of chunks([...parsed.products.values()])) {
    await trx
      .insertInto('shopee_products')
      .values(
        part.map(({ row: _row, ...p }) => ({
          ...p,
          search_text: searchTextOf(p.title),
          pdd_goods_url: null,
          pdd_goods_id: null,
          created_at: now,
          updated_at: now,
        })),
      )
      .onConflict((oc) =>
        oc.column('goods_id').doUpdateSet((eb) => ({
          title: eb.ref('excluded.title'),
          search_text: eb.ref('excluded.search_text'),
          ...(present.has('商品當前狀態') ? { shopee_status: eb.ref('excluded.shopee_status') } : {}),
          ...(present.has('主商品貨號') ? { main_sku_code: eb.ref('excluded.main_sku_code') } : {}),
          updated_at: eb.ref('excluded.updated_at'),
        })),
      )
      .execute();
  }

  let manualKept = 0;
  for (const part of chunks(skus)) {
    const ids = part.map((s) => s.sku_id);
    const manual = await trx
      .selectFrom('shopee_skus')
      .select('sku_id')
      .where('sku_id', 'in', ids)
      .where('is_manual', '=', 1)
      .execute();
    manualKept += manual.length;
    await trx
      .insertInto('shopee_skus')
      .values(part.map(({ row: _row, ...s }) => ({ ...s, is_manual: 0 as const, created_at: now, updated_at: now })))
      .onConflict((oc) =>
        oc
          .column('sku_id')
          .doUpdateSet((eb) => ({
            goods_id: eb.ref('excluded.goods_id'),
            spec_raw: eb.ref('excluded.spec_raw'),
            color: eb.ref('excluded.color'),
            size: eb.ref('excluded.size'),
            advice: eb.ref('excluded.advice'),
            parse_ok: eb.ref('excluded.parse_ok'),
            ...(present.has('商品選項貨號') ? { sku_code: eb.ref('excluded.sku_code') } : {}),
            updated_at: eb.ref('excluded.updated_at'),
          }))
          .where('shopee_skus.is_manual', '=', 0),
      )
      .execute();
  }

  return {
    products: parsed.products.size,
    skus: skus.length,
    failed_rows: reported.sort((a, b) => a.row - b.row),
    manual_kept: manualKept,
  };
}
