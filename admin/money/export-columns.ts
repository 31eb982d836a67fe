import { STATUS_ZH, type PurchaseStatus } from '../../domain/purchase/status';
import type { MoneyLine } from '../../domain/money-views';

/**
 * The columns of the money export (admin/money/export.ts), one row per 顺运宝 order line. Each
 * column keeps the stored integer and says what kind of figure it is; the xlsx and the CSV writer
 * each turn a kind into their own cell (a number with a format, or text Excel reads as one).
 */
export type ExportKind =
  /** a Taipei day `YYYY-MM-DD` */
  | 'date'
  /** a UTC instant `YYYY-MM-DDTHH:MM:SSZ`, shown in Taipei time */
  | 'datetime'
  | 'text'
  | 'integer'
  /** integer cents, shown in 元 */
  | 'twd'
  | 'cny'
  /** CNY per TWD × 1,000,000 */
  | 'rate_ppm'
  /** basis points, shown as a percentage */
  | 'bp';

export interface ExportColumn {
  header: string;
  kind: ExportKind;
  /** character widths, so the sheet opens readable */
  width: number;
  value(line: MoneyLine): string | number | null;
}

const COST_SOURCE_ZH: Record<NonNullable<MoneyLine['cost_source']>, string> = { purchase: '实际', estimate: '预估' };

/** A status the table has no word for (a state added later) shows as its code rather than nothing. */
const statusZh = (status: string | null) => (status === null ? null : (STATUS_ZH[status as PurchaseStatus] ?? status));

export const EXPORT_COLUMNS: readonly ExportColumn[] = [
  { header: '发货日期', kind: 'date', width: 12, value: (l) => l.shipped_on },
  { header: '顺运宝单号', kind: 'text', width: 22, value: (l) => l.syb_order_no },
  { header: '虾皮商品编号', kind: 'text', width: 16, value: (l) => l.shopee_goods_id },
  { header: '虾皮规格编号', kind: 'text', width: 16, value: (l) => l.shopee_sku_id },
  { header: '商品名称', kind: 'text', width: 40, value: (l) => l.title },
  { header: '规格', kind: 'text', width: 20, value: (l) => l.product_spec },
  { header: '数量', kind: 'integer', width: 6, value: (l) => l.quantity },
  { header: '售价(新台币)', kind: 'twd', width: 14, value: (l) => l.sale_twd_cent },
  { header: '汇率', kind: 'rate_ppm', width: 10, value: (l) => l.rate_ppm },
  { header: '售价(人民币)', kind: 'cny', width: 14, value: (l) => l.sale_cny_cent },
  { header: '费用(人民币)', kind: 'cny', width: 14, value: (l) => l.fees_cny_cent },
  { header: '拼多多订单号', kind: 'text', width: 24, value: (l) => l.pdd_order_no },
  { header: '成本(人民币)', kind: 'cny', width: 14, value: (l) => l.cost_cny_cent },
  { header: '成本来源', kind: 'text', width: 8, value: (l) => (l.cost_source ? COST_SOURCE_ZH[l.cost_source] : null) },
  { header: '毛利(人民币)', kind: 'cny', width: 14, value: (l) => l.margin_cny_cent },
  { header: '毛利率', kind: 'bp', width: 9, value: (l) => l.margin_bp },
  { header: '状态', kind: 'text', width: 10, value: (l) => statusZh(l.task_status) },
  { header: '付款时间', kind: 'datetime', width: 20, value: (l) => l.paid_at },
];

/** Taipei has no daylight saving time: local time is UTC + 8 h all year (domain/syb.ts). */
const TAIPEI_OFFSET_MS = 8 * 3_600_000;

/**
 * An instant as the Date whose UTC fields read as Taipei's wall clock: a spreadsheet date has no
 * zone, and exceljs writes a Date's UTC fields, so the cell shows the Taipei time.
 */
export const taipeiWallClock = (utc: string): Date => new Date(Date.parse(utc) + TAIPEI_OFFSET_MS);

/** A Taipei day as the Date of its midnight, for the same reason. */
export const dayDate = (day: string): Date => new Date(`${day}T00:00:00Z`);

/** `2026-11-20T17:05:00Z` → `2026-11-21 01:05:00` */
export const taipeiText = (utc: string): string => taipeiWallClock(utc).toISOString().slice(0, 19).replace('T', ' ');
