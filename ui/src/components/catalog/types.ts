/** Response shapes of the catalog API (admin/catalog/*), as the UI reads them. */
import { centsToYuan } from '../../money';

export type ProductState = 'unlinked' | 'pending' | 'collecting' | 'collected' | 'failed';

export const STATE_LABELS: Record<ProductState, string> = {
  unlinked: '未填链接',
  pending: '待采集',
  collecting: '采集中',
  collected: '已采集',
  failed: '采集失败',
};

export interface Page<T> {
  items: T[];
  next_cursor: string | null;
}

export interface ProductItem {
  goods_id: string;
  title: string;
  shopee_status: string | null;
  main_sku_code: string | null;
  pdd_goods_id: string | null;
  state: ProductState;
  sku_count: number;
  parse_failed_count: number;
  mapped_count: number;
  updated_at: string;
}

export type Options = Record<string, string>;

export interface Mapping {
  pdd_goods_id: string;
  pdd_options: Options;
  pdd_option_key: string;
  mapped_at: string;
  mapped_by: string | null;
}

export interface Sku {
  sku_id: string;
  spec_raw: string;
  color: string | null;
  size: string | null;
  advice: string | null;
  parse_ok: 0 | 1;
  is_manual: 0 | 1;
  sku_code: string | null;
  mapping: Mapping | null;
}

export interface PddDetail {
  goods_id: string;
  url: string;
  canonical_url: string;
  title: string | null;
  shop_name: string | null;
  collect_status: 'pending' | 'collecting' | 'collected' | 'failed';
  collect_stale: boolean;
  state: ProductState;
  collect_code: string | null;
  collect_msg: string | null;
  artifact_ref: string | null;
  collect_device_id: string | null;
  collect_workflow_id: string | null;
  collected_at: string | null;
  skus_json: { skus?: unknown[] } | null;
  updated_at: string;
}

export interface ProductDetail {
  goods_id: string;
  title: string;
  shopee_status: string | null;
  main_sku_code: string | null;
  pdd_goods_url: string | null;
  pdd_goods_id: string | null;
  state: ProductState;
  pdd: PddDetail | null;
  skus: Sku[];
}

export interface PddItem {
  goods_id: string;
  title: string | null;
  shop_name: string | null;
  collect_status: PddDetail['collect_status'];
  collect_stale: boolean;
  state: ProductState;
  collect_msg: string | null;
  collected_at: string | null;
  sku_count: number | null;
  linked_products: number;
  updated_at: string;
}

export interface ImportResult {
  products: number;
  skus: number;
  failed_rows: Array<{ row: number; reason: string; sku_id?: string }>;
  manual_kept: number;
}

export interface PddSkuRow {
  options: Options;
  option_key: string;
  price_cent: number | null;
  list_price_cent: number | null;
  raw_price: string | null;
  available: boolean;
  price_measured: boolean;
}

export interface MappingBoard {
  goods_id: string;
  title: string;
  pdd_goods_id: string | null;
  pdd_title: string | null;
  collect_status: string | null;
  dimensions: Array<{ key: string; name: string }>;
  price_granularity: 'color' | 'sku' | null;
  pdd_skus: PddSkuRow[];
  shopee_skus: Array<Sku & { mapping_missing: boolean; suggestions: string[] }>;
}

/** Integer cents → `¥12.56`; unknown stays unknown (未知), never 0. */
export function yuan(cent: number | null | undefined): string {
  return cent === null || cent === undefined ? '未知' : `¥${centsToYuan(cent)}`;
}

/** UTC `…Z` → local time for display. */
export function localTime(utc: string | null): string {
  if (!utc) return '—';
  const d = new Date(utc);
  return Number.isNaN(d.getTime()) ? utc : d.toLocaleString('zh-CN', { hour12: false });
}
