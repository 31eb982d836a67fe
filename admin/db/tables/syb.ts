/** Row types of migrations/0030_syb.ts (docs/syb-protocol.md). */
interface SybOrdersTable {
  syb_id: string;
  /** the 顺运宝 order number (0075 renamed it from `order_no`) */
  syb_order_no: string;
  title: string | null;
  product_spec: string | null;
  shopee_goods_id: string;
  /** the matching result; the sync never overwrites it */
  shopee_sku_id: string | null;
  quantity: number;
  price_twd_cent: number | null;
  image_url: string | null;
  /** the line and its shipment as SYB sent them, recipient fields removed */
  syb_data: string;
  created_at: string;
  first_synced_at: string;
  updated_at: string;
  /** 0045: why the adapter cannot use this line (Chinese, shown as 数据异常); null for a usable line */
  data_problem: string | null;
}

interface SybSessionTable {
  username: string;
  expires_at: string;
  logged_in_at: string;
  updated_at: string;
}

/** migrations/0140: the password set on 设置, sealed with the payload key (admin/syb/account-secret.ts) */
interface SybAccountSecretTable {
  id: 1;
  /** the payload key that sealed it; null with `sealed` once the password was dropped */
  key_id: string | null;
  sealed: Buffer | null;
  updated_at: string;
}

interface SybSyncStateTable {
  id: 1;
  last_synced_at: string | null;
  last_error: string | null;
  running: 0 | 1;
  started_at: string | null;
  finished_at: string | null;
  progress_pages: number;
  progress_lines: number;
  updated_at: string;
  /** 0045: `[{"id", "error"}]` of shipments whose detail call failed, fetched again by the next sync */
  retry_json: string;
}

/** Columns 0030 adds to `tasks`: the order line a purchase draft came from. */
interface SybTaskColumns {
  syb_id: string | null;
  /** the 顺运宝 order number (0075 renamed it back from `order_no`); the PDD one is `pdd_order_no` */
  syb_order_no: string | null;
  shopee_goods_id: string | null;
  shopee_sku_id: string | null;
}

export interface SybTables {
  syb_orders: SybOrdersTable;
  syb_session: SybSessionTable;
  syb_account_secret: SybAccountSecretTable;
  syb_sync_state: SybSyncStateTable;
  tasks: SybTaskColumns;
}
