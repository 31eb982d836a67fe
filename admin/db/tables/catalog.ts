import type { Generated } from 'kysely';
import type { CollectRunStatus } from '../../../domain/collect-labels';
import type { PurchaseStatus } from '../../../domain/purchase/status';

/** Row types of migrations/0010_catalog.ts (docs/architecture.md §5.1–§5.2). */
export interface ShopeeProductsTable {
  goods_id: string;
  title: string;
  shopee_status: string | null;
  main_sku_code: string | null;
  pdd_goods_url: string | null;
  pdd_goods_id: string | null;
  /** the searchable title, folded by domain/catalog-search.ts `searchTextOf` (migration 0030) */
  search_text: string | null;
  created_at: string;
  updated_at: string;
}

export interface ShopeeSkusTable {
  sku_id: string;
  goods_id: string;
  spec_raw: string;
  color: string | null;
  size: string | null;
  advice: string | null;
  parse_ok: 0 | 1;
  sku_code: string | null;
  is_manual: 0 | 1;
  created_at: string;
  updated_at: string;
}

type CollectStatusColumn = 'pending' | 'collecting' | 'collected' | 'failed';

export interface PddProductsTable {
  id: Generated<number>;
  goods_id: string;
  url: string;
  title: string | null;
  shop_name: string | null;
  skus_json: string | null;
  collect_status: CollectStatusColumn;
  collect_msg: string | null;
  collect_code: string | null;
  artifact_ref: string | null;
  collected_at: string | null;
  collect_workflow_id: string | null;
  collect_run_id: string | null;
  collect_device_id: string | null;
  deleted_at: string | null;
  /** title and shop_name, folded by domain/catalog-search.ts `searchTextOf` (migration 0030) */
  search_text: string | null;
  created_at: string;
  updated_at: string;
}

interface SkuMappingsTable {
  shopee_sku_id: string;
  pdd_goods_id: string;
  pdd_option_key: string;
  pdd_options: string;
  goods_id: string;
  mapped_at: string;
  mapped_by: string | null;
}

/** a collect task's status: the collect run vocabulary of domain/collect-labels.ts */
export type CollectTaskStatus = CollectRunStatus;

export interface TasksTable {
  task_id: string;
  task_type: 'collect' | 'purchase';
  /** collect rows: a collect run state (lowercase); purchase rows: a purchase state (uppercase) */
  status: CollectTaskStatus | PurchaseStatus;
  version: Generated<number>;
  workflow_id: string | null;
  run_id: string | null;
  pdd_goods_url: string;
  pdd_goods_id: string | null;
  device_id: string | null;
  result_data: string | null;
  error_code: string | null;
  error_message: string | null;
  artifact_ref: string | null;
  finished_at: string | null;
  /** title, folded by domain/catalog-search.ts `searchTextOf` (migration 0030) */
  search_text: string | null;
  created_at: string;
  updated_at: string;
}

interface TaskClaimsTable {
  task_id: string;
  device_id: string;
  claimed_at: string;
}

export interface CatalogTables {
  shopee_products: ShopeeProductsTable;
  shopee_skus: ShopeeSkusTable;
  pdd_products: PddProductsTable;
  sku_mappings: SkuMappingsTable;
  tasks: TasksTable;
  task_claims: TaskClaimsTable;
}
