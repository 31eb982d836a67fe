import type { CollectStatus, ProductState } from './catalog';

/**
 * What the catalog API returns (admin/catalog/*), defined once: the admin's functions are typed
 * with these and the UI reads the same types, so the two cannot drift apart.
 */

/** A Shopee SKU's mapping under its product's *current* PDD goods. */
export interface MappingView {
  pdd_goods_id: string;
  pdd_options: Record<string, string>;
  pdd_option_key: string;
  mapped_at: string;
  mapped_by: string | null;
}

/** A row of 商品 (`GET /api/shopee/products`). */
export interface ProductListItem {
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

export interface ShopeeSkuView {
  sku_id: string;
  spec_raw: string;
  color: string | null;
  size: string | null;
  advice: string | null;
  parse_ok: 0 | 1;
  is_manual: 0 | 1;
  sku_code: string | null;
  mapping: MappingView | null;
  /** the mapped combination in the current goods' last collect (price, 实测/推测); null when none */
  pdd_sku: PddSkuRow | null;
}

/** One PDD goods as stored, with its collect state worked out at read time. */
export interface PddProductView {
  goods_id: string;
  url: string;
  canonical_url: string;
  title: string | null;
  shop_name: string | null;
  collect_status: CollectStatus;
  /** `collecting` for longer than CollectStaleAfter: shown as failed, may be collected again */
  collect_stale: boolean;
  state: ProductState;
  collect_code: string | null;
  collect_msg: string | null;
  artifact_ref: string | null;
  collect_device_id: string | null;
  collect_workflow_id: string | null;
  collected_at: string | null;
  /** the collected `skus_json` as stored (domain/collect.ts), null before the first collect */
  skus_json: unknown;
  deleted: boolean;
  deleted_at: string | null;
  created_at: string;
  updated_at: string;
}

/** 商品详情 (`GET /api/shopee/products/:goodsId`). */
export interface ProductDetailView {
  goods_id: string;
  title: string;
  shopee_status: string | null;
  main_sku_code: string | null;
  pdd_goods_url: string | null;
  pdd_goods_id: string | null;
  state: ProductState;
  pdd: PddProductView | null;
  skus: ShopeeSkuView[];
  /** unmapped SKUs 按文字一致全部映射 would map now (AutoMappingPreview.mappable) */
  auto_mappable: number;
  created_at: string;
  updated_at: string;
}

/** A row of PDD 商品 (`GET /api/pdd/products`). */
export interface PddListItem {
  goods_id: string;
  title: string | null;
  shop_name: string | null;
  collect_status: CollectStatus;
  collect_stale: boolean;
  state: ProductState;
  collect_msg: string | null;
  collected_at: string | null;
  sku_count: number | null;
  linked_products: number;
  updated_at: string;
}

export interface ImportFailedRow {
  /** worksheet row number as Excel shows it (header = 1) */
  row: number;
  reason: string;
  /** set when the row was still stored (a SKU whose spec needs completing by hand) */
  sku_id?: string;
}

/** `POST /api/shopee/imports`. */
export interface ImportResult {
  products: number;
  skus: number;
  failed_rows: ImportFailedRow[];
  /** SKUs in the file that exist as manual SKUs: the import left them as the operator made them */
  manual_kept: number;
}

/**
 * Why an option combination deserves a second look before it is mapped or bought: out of
 * stock, or no price was read. A mapping to it is allowed (stock and prices change), but said.
 */
export const OPTION_WARNINGS = {
  OUT_OF_STOCK: '缺货',
  PRICE_UNKNOWN: '价格未知',
} as const;
export type OptionWarning = keyof typeof OPTION_WARNINGS;

export function optionWarnings(row: { available: boolean; price_cent: number | null }): OptionWarning[] {
  const out: OptionWarning[] = [];
  if (!row.available) out.push('OUT_OF_STOCK');
  if (row.price_cent === null) out.push('PRICE_UNKNOWN');
  return out;
}

/** A collected PDD option combination, as the mapping dialog lists it. */
export interface PddSkuRow {
  options: Record<string, string>;
  option_key: string;
  price_cent: number | null;
  list_price_cent: number | null;
  raw_price: string | null;
  available: boolean;
  /** measured on this exact combination, or inferred from another one of the same colour */
  price_measured: boolean;
  /** a price that was not read on this combination (domain/collect.ts isInferredPrice): 推测价格 */
  price_inferred: boolean;
  warnings: OptionWarning[];
}

/** `PUT /api/mappings/:skuId`: saved; `warnings` says what is wrong with the option today. */
export interface MappingSaved {
  shopee_sku_id: string;
  pdd_goods_id: string;
  pdd_options: Record<string, string>;
  pdd_option_key: string;
  warnings: OptionWarning[];
}

/** One collect run of a goods (`recent_collects`), newest first. */
export interface CollectRunView {
  task_id: string;
  /** queued | collecting | succeeded | failed | rejected */
  status: string;
  device_id: string | null;
  error_code: string | null;
  error_message: string | null;
  artifact_ref: string | null;
  created_at: string;
  finished_at: string | null;
}

/** PDD 商品详情 (`GET /api/pdd/products/:pddGoodsId`). */
export interface PddGoodsDetailView extends PddProductView {
  linked_products: Array<{ goods_id: string; title: string }>;
  dimensions: Array<{ key: string; name: string }>;
  /** every collected option combination with its price (null = unknown, never 0) and stock */
  skus: PddSkuRow[];
  metrics: { sales_text: string | null } | null;
  recent_collects: CollectRunView[];
}

interface MappingBoardSku extends Omit<ShopeeSkuView, 'sku_code' | 'pdd_sku'> {
  /** the mapped combination is no longer in the last collect */
  mapping_missing: boolean;
  /** option keys whose values contain the SKU's colour and size verbatim */
  suggestions: string[];
}

/** 规格映射 (`GET /api/mappings?goods_id=`): Shopee SKUs beside the current PDD goods' rows. */
export interface MappingBoard {
  goods_id: string;
  title: string;
  pdd_goods_id: string | null;
  pdd_title: string | null;
  collect_status: CollectStatus | null;
  dimensions: Array<{ key: string; name: string }>;
  price_granularity: 'color' | 'sku' | null;
  pdd_skus: PddSkuRow[];
  shopee_skus: MappingBoardSku[];
}

/** Why 按文字一致全部映射 leaves an unmapped SKU alone. */
export const AUTO_MAPPING_SKIPS = {
  AMBIGUOUS: '文字一致的拼多多规格不止一个，请手动选择',
  NO_MATCH: '没有文字一致的拼多多规格',
} as const;
type AutoMappingSkip = keyof typeof AUTO_MAPPING_SKIPS;

/**
 * 按文字一致全部映射 (`GET /api/shopee/products/:goodsId/auto-mappings`): each unmapped SKU whose
 * spec reads as exactly one collected combination, and those it leaves alone with why.
 */
export interface AutoMappingPreview {
  goods_id: string;
  pdd_goods_id: string;
  dimensions: Array<{ key: string; name: string }>;
  mappable: Array<{ sku_id: string; spec_raw: string; pdd: PddSkuRow }>;
  /** `candidates`: the combinations that read the same (several for AMBIGUOUS, none for NO_MATCH) */
  skipped: Array<{ sku_id: string; spec_raw: string; reason: AutoMappingSkip; candidates: PddSkuRow[] }>;
  /** SKUs already mapped under the current goods: never touched */
  already_mapped: number;
}
