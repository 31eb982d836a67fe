import { invalidInput, tooLarge } from '../../domain/api-error';
import type { ImportFailedRow as FailedRow } from '../../domain/catalog-views';
import { parseShopeeSpec } from '../../domain/shopee-spec';
import { cleanText } from '../../domain/text';
import type { ShopeeProductsTable, ShopeeSkusTable } from '../db/tables/catalog';
import { CatalogErrors } from './errors';
import {
  cellText,
  idCellText,
  readFirstSheet,
  WorkbookTooLarge,
  WorkbookUnreadable,
  type CellValue,
  type SheetRow,
} from './xlsx';

/** docs/architecture.md §5.2: columns are found by their trimmed header text, never by position. */
const REQUIRED_COLUMNS = ['商品ID', '商品名稱', '商品規格ID', '商品規格'] as const;
const OPTIONAL_COLUMNS = ['主商品貨號', '商品當前狀態', '商品選項貨號'] as const;
export type Column = (typeof REQUIRED_COLUMNS)[number] | (typeof OPTIONAL_COLUMNS)[number];

type ProductRow = Pick<ShopeeProductsTable, 'goods_id' | 'title' | 'shopee_status' | 'main_sku_code'>;
type SkuRow = Pick<
  ShopeeSkusTable,
  'sku_id' | 'goods_id' | 'spec_raw' | 'color' | 'size' | 'advice' | 'parse_ok' | 'sku_code'
>;

/**
 * A product to write. `derived`: the file has no row of its own for it (商品規格ID `-`), so it
 * was made from its SKU rows — written with what those rows say, never blanking a stored field.
 */
export type ParsedProduct = ProductRow & { row: number; derived?: true };
export type ParsedSku = SkuRow & { row: number };

export interface ParsedImport {
  present: ReadonlySet<Column>;
  products: Map<string, ParsedProduct>;
  skus: Map<string, ParsedSku>;
  failed: FailedRow[];
  /**
   * goods ids of SKUs with neither a product row nor a 商品名稱 on any of their rows: imported
   * only if the product is already stored (worked out here, off the admin's loop)
   */
  orphanGoods: string[];
}

const DIGITS = /^\d{1,30}$/;

/**
 * A cell's text as it may be stored: controls, direction overrides and lone surrogates removed
 * (domain/text.ts) — a stray BEL in a title of an export is no reason to refuse its row.
 */
const storedText = (value: CellValue) => cleanText(cellText(value));

const emptyWorkbook = () =>
  invalidInput(CatalogErrors.EMPTY_WORKBOOK, 'the workbook has no rows; export the product list from Shopee again');

/**
 * Rows → what to write, one row at a time as the reader streams them, so only the compact
 * products and SKUs are held, never the sheet. Everything is validated before anything is
 * written.
 */
class ImportRows {
  private index: Map<string, number> | undefined;
  private present = new Set<Column>();
  readonly products = new Map<string, ParsedProduct>();
  readonly skus = new Map<string, ParsedSku>();
  readonly failed: FailedRow[] = [];
  /** per goods id, the product its SKU rows describe: used when the file has no row of its own */
  private readonly fromSkus = new Map<string, ParsedProduct>();

  add(row: SheetRow): void {
    if (this.index === undefined) this.header(row);
    else this.data(row);
  }

  result(): ParsedImport {
    if (this.index === undefined) throw emptyWorkbook();
    const orphanGoods = new Set<string>();
    const { present, products, skus, failed, fromSkus } = this;
    for (const s of skus.values()) {
      if (products.has(s.goods_id)) continue;
      const derived = fromSkus.get(s.goods_id);
      if (derived && derived.title !== '') products.set(s.goods_id, derived);
      else orphanGoods.add(s.goods_id);
    }
    fromSkus.clear();
    return { present, products, skus, failed, orphanGoods: [...orphanGoods] };
  }

  private header(header: SheetRow): void {
    const index = new Map<string, number>();
    header.values.forEach((v, i) => {
      const name = cellText(v).trim();
      if (name !== '' && !index.has(name)) index.set(name, i);
    });
    const missing = REQUIRED_COLUMNS.filter((c) => !index.has(c));
    if (missing.length > 0) {
      throw invalidInput(
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
    const t = storedText(this.at(row, col)).trim();
    return t === '' ? null : t;
  }

  /**
   * What a SKU row says of its product, for a file without the product's own row (an export cut
   * down to the columns docs/operator-guide.md names): the first non-empty 商品名稱, 商品當前狀態
   * and 主商品貨號 among its SKU rows.
   */
  private describeProduct(row: SheetRow, goodsId: string): void {
    if (this.products.has(goodsId)) return; // its own row came first, as in a full export
    const known = this.fromSkus.get(goodsId);
    if (known && known.title !== '' && known.shopee_status !== null && known.main_sku_code !== null) return;
    this.fromSkus.set(goodsId, {
      row: known?.row ?? row.number,
      derived: true,
      goods_id: goodsId,
      title: known?.title || storedText(this.at(row, '商品名稱')).trim(),
      shopee_status: known?.shopee_status ?? this.optionalText(row, '商品當前狀態'),
      main_sku_code: known?.main_sku_code ?? this.optionalText(row, '主商品貨號'),
    });
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
      failed.push({ row: row.number, reason: `商品ID「${cleanText(goodsId)}」不是数字` });
      return;
    }
    const skuCell = idCellText(this.at(row, '商品規格ID'));
    if (skuCell === null) {
      failed.push({ row: row.number, reason: '商品規格ID 不是精确的整数' });
      return;
    }
    if (skuCell === '' || skuCell === '-') {
      const title = storedText(this.at(row, '商品名稱')).trim();
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
      failed.push({ row: row.number, reason: `商品規格ID「${cleanText(skuCell)}」既不是数字也不是 -` });
      return;
    }
    const first = skus.get(skuCell);
    if (first) {
      failed.push({ row: row.number, reason: `商品規格ID ${skuCell} 重复，已按第 ${first.row} 行导入` });
      return;
    }
    this.describeProduct(row, goodsId);
    const specRaw = storedText(this.at(row, '商品規格'));
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
      throw invalidInput(
        CatalogErrors.INVALID_XLSX,
        'the file is not a readable xlsx workbook; upload the .xlsx that Shopee exports',
      );
    }
    if (err instanceof WorkbookTooLarge) {
      // Refused before anything is written: the import is all or nothing.
      if (err.limit === 'unpacked') throw tooLarge(CatalogErrors.IMPORT_UNPACKED_TOO_LARGE, err.message);
      if (err.limit === 'strings') throw tooLarge(CatalogErrors.IMPORT_TOO_MANY_STRINGS, err.message);
      const details = err.row === undefined ? undefined : { row: err.row };
      if (err.limit === 'rows')
        throw invalidInput(CatalogErrors.IMPORT_TOO_MANY_ROWS, `${err.message}; split the export`, details);
      throw invalidInput(
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
