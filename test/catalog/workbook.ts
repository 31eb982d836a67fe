import ExcelJS from 'exceljs';

/** One data row of a Shopee export, by column name; numbers become numeric cells. */
export type ExportRow = Partial<Record<string, string | number | null>>;

/** Writes an xlsx with the given header cells (exact text, spaces included) and rows. */
export async function buildWorkbook(
  header: string[],
  rows: ExportRow[],
  opts: { extraSheet?: boolean } = {},
): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('商品');
  ws.addRow(header);
  for (const r of rows) ws.addRow(header.map((h) => r[h.trim()] ?? null));
  if (opts.extraSheet) wb.addWorksheet('說明').addRow(['這一頁不是資料']);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

export async function emptyWorkbook(): Promise<Buffer> {
  return Buffer.from(await new ExcelJS.Workbook().xlsx.writeBuffer());
}

/**
 * The generated export of the import tests: 60 products × (1 summary row + 3 SKU rows) plus
 * broken rows, with shuffled and extra columns, header cells padded with spaces, and IDs as
 * numeric cells on every other product. `expect` says what a correct import makes of it.
 */
export function generatedExport() {
  const header = [
    '價格',
    ' 商品規格 ',
    '商品名稱',
    '主商品貨號',
    '商品ID ',
    '庫存',
    '商品當前狀態',
    ' 商品規格ID',
    '商品選項貨號',
    '商品描述',
  ];
  const rows: ExportRow[] = [];
  const failed: Array<{ row: number; reason: string; sku_id?: string }> = [];
  const skus = new Map<
    string,
    {
      goods_id: string;
      spec_raw: string;
      color: string | null;
      size: string | null;
      advice: string | null;
      parse_ok: 0 | 1;
      sku_code: string;
    }
  >();
  const products = new Map<string, { title: string; main_sku_code: string; shopee_status: string }>();

  for (let p = 0; p < 60; p++) {
    const goodsNum = 21000000000 + p * 7;
    const goodsId = String(goodsNum);
    const idCell = p % 2 === 0 ? goodsNum : goodsId; // numeric cells on every other product
    const title = `西裝外套 ${p} 號`;
    products.set(goodsId, { title, main_sku_code: `M-${p}`, shopee_status: p % 5 === 0 ? '已下架' : '上架中' });
    rows.push({
      商品ID: idCell,
      商品名稱: title,
      商品規格ID: p % 3 === 0 ? '' : '-',
      主商品貨號: `M-${p}`,
      商品當前狀態: products.get(goodsId)?.shopee_status ?? null,
      價格: 100 + p,
      商品描述: 'x',
    });
    for (let s = 0; s < 3; s++) {
      const skuNum = 88000000000 + p * 10 + s;
      const skuId = String(skuNum);
      const color = ['黑色', '卡其色拼黑色', '白色'][s] as string;
      const size = ['M', 'L', 'XL'][s] as string;
      let spec: string;
      let parsed: { color: string | null; size: string | null; advice: string | null; parse_ok: 0 | 1 };
      if (p % 10 === 9 && s === 2) {
        spec = p % 20 === 9 ? `${color}${size}` : `,${size}`; // bad: no comma / empty colour
        parsed = { color: null, size: null, advice: null, parse_ok: 0 };
      } else if (s === 0) {
        spec = `${color},${size}【建議40-50公斤】`;
        parsed = { color, size, advice: '40-50公斤', parse_ok: 1 };
      } else if (s === 1) {
        spec = `${color},${size} 建議50-57.5kg`;
        parsed = { color, size, advice: '50-57.5kg', parse_ok: 1 };
      } else {
        spec = `${color},${size}`;
        parsed = { color, size, advice: null, parse_ok: 1 };
      }
      rows.push({
        商品ID: idCell,
        商品名稱: title,
        商品規格ID: p % 2 === 0 ? skuNum : skuId,
        商品規格: spec,
        商品選項貨號: `S-${p}-${s}`,
        價格: 99,
        庫存: 5,
      });
      const excelRow = rows.length + 1;
      if (parsed.parse_ok === 0) failed.push({ row: excelRow, reason: '无法解析', sku_id: skuId });
      skus.set(skuId, { goods_id: goodsId, spec_raw: spec, ...parsed, sku_code: `S-${p}-${s}` });
    }
  }
  // rows that must be reported and not imported
  rows.push({ 商品ID: 'ABC', 商品名稱: '壞ID', 商品規格ID: '-' });
  failed.push({ row: rows.length + 1, reason: '不是数字' });
  rows.push({ 商品ID: '21000000000', 商品名稱: '沒有規格ID', 商品規格ID: 'x-1', 商品規格: '黑色,M' });
  failed.push({ row: rows.length + 1, reason: '既不是数字也不是 -' });
  // a SKU without its product's row is imported, the product made from it — but not untitled
  rows.push({ 商品ID: '29999999999', 商品名稱: '', 商品規格ID: '87000000001', 商品規格: '黑色,M' });
  failed.push({ row: rows.length + 1, reason: '商品名稱为空，表里也没有它的商品行' });
  rows.push({ 商品ID: 21000000007, 商品名稱: '重複', 商品規格ID: '-' });
  failed.push({ row: rows.length + 1, reason: '重复' });
  rows.push({}); // an empty row is skipped silently
  rows.push({ 商品ID: '', 商品名稱: '沒有商品ID', 商品規格ID: '-' });
  failed.push({ row: rows.length + 1, reason: '商品ID 为空' });

  return { header, rows, expect: { products, skus, failed } };
}
