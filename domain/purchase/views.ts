import type { PurchaseStatus } from './status';

/**
 * What the admin's task API returns (docs/API.md), defined once: the admin builds these and the
 * UI imports them as types only, so the two cannot drift apart.
 */
export interface GateView {
  gate1_unit_price_cent: number | null;
  gate2_panel_total_cent: number | null;
  gate3_submit_amount_cent: number | null;
  quantity_read: number | null;
}

export interface TaskView {
  task_id: string;
  type: 'purchase';
  status: PurchaseStatus;
  status_zh: string;
  next_step_zh: string;
  version: number;
  execution_mode: string;
  title: string | null;
  shop_name: string | null;
  pdd_goods_id: string | null;
  pdd_goods_url: string;
  pdd_options: Record<string, string>;
  quantity: number;
  max_total_price_cent: number;
  reason_code: string | null;
  reason_zh: string | null;
  reason_next_zh: string | null;
  device_id: string | null;
  /** the PDD order number (until the column is renamed, `order_no` carries it too) */
  order_no: string | null;
  pdd_order_no: string | null;
  /** the 顺运宝 order line and order number a draft was made from */
  syb_id: string | null;
  syb_order_no: string | null;
  shopee_goods_id: string | null;
  shopee_sku_id: string | null;
  workflow_id: string | null;
  authorization: { id: string; status: string; expires_at: string } | null;
  gates: GateView;
  attempt: { id: string; step: string | null; status: string; artifact_ref: string | null; failure_detail: string | null; timeline: unknown[]; purchase: unknown } | null;
  submission: { id: string; status: string; order_submitted_at: string | null; order_no: string | null; abandoned_at: string | null } | null;
  evidence: Array<{ id: string; kind: string; captured_at: string }>;
  /**
   * The Temporal status of the task's workflow when it is closed although the task is neither
   * DRAFT nor terminal (terminated or timed out by hand): only the operator's 录入核对结果 moves
   * it on. Null otherwise, and on the task list.
   */
  workflow_closed?: string | null;
  created_at: string;
  updated_at: string;
}

export interface TaskListItem {
  task_id: string;
  type: 'purchase' | 'collect';
  status: string;
  status_zh: string | null;
  title: string | null;
  shop_name: string | null;
  execution_mode: string | null;
  pdd_options: Record<string, string> | null;
  quantity: number | null;
  max_total_price_cent: number | null;
  reason_code: string | null;
  version: number;
  duration_seconds: number | null;
  updated_at: string;
}
