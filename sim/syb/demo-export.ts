import ExcelJS from 'exceljs';
import { DEMO_PRODUCTS } from './data';

/**
 * The Shopee product export that goes with the simulator's default orders: one summary row
 * (商品規格ID `-`) and one row per spec for each demo product, in the column layout of a real
 * Shopee export (the import finds columns by their header text: docs/operator-guide.md).
 * Generated rather than checked in, so it never drifts from `DEMO_PRODUCTS`.
 */
const DEMO_EXPORT_HEADER = [
  '商品ID',
  '商品名稱',
  '商品規格ID',
  '商品規格',
  '主商品貨號',
  '商品選項貨號',
  '商品當前狀態',
  '價格',
  '庫存',
] as const;

type Cell = string | number | null;
type Row = Record<(typeof DEMO_EXPORT_HEADER)[number], Cell>;

export interface DemoSku {
  goodsId: string;
  skuId: string;
  spec: string;
}

/** A demo product's SKU ids: its goods id and the spec's position, so they are stable across runs. */
export function demoSkus(): DemoSku[] {
  return DEMO_PRODUCTS.flatMap((p) =>
    p.specs.map((spec, i) => ({
      goodsId: p.productId,
      skuId: `${p.productId}${String(i + 1).padStart(2, '0')}`,
      spec,
    })),
  );
}

/** The PDD link an operator pastes for a demo product (the phone simulator's goods). */
export function demoPddUrl(pddGoodsId: string): string {
  return `https://mobile.yangkeduo.com/goods.html?goods_id=${pddGoodsId}`;
}

function demoExportRows(): Row[] {
  const rows: Row[] = [];
  const skus = demoSkus();
  DEMO_PRODUCTS.forEach((p, n) => {
    const code = `DEMO-${n + 1}`;
    rows.push({
      商品ID: p.productId,
      商品名稱: p.title,
      商品規格ID: '-',
      商品規格: null,
      主商品貨號: code,
      商品選項貨號: null,
      商品當前狀態: '上架中',
      價格: null,
      庫存: null,
    });
    for (const [i, sku] of skus.filter((s) => s.goodsId === p.productId).entries()) {
      rows.push({
        商品ID: p.productId,
        商品名稱: p.title,
        商品規格ID: sku.skuId,
        商品規格: sku.spec,
        主商品貨號: null,
        商品選項貨號: `${code}-${i + 1}`,
        商品當前狀態: null,
        價格: 999,
        庫存: 10,
      });
    }
  });
  return rows;
}

/** The demo export as xlsx bytes. */
export async function demoShopeeExport(): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('商品');
  ws.addRow([...DEMO_EXPORT_HEADER]);
  for (const row of demoExportRows()) ws.addRow(DEMO_EXPORT_HEADER.map((h) => row[h]));
  return Buffer.from(await wb.xlsx.writeBuffer());
}
