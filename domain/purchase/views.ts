import type { PurchaseStatus } from './status';
import type { StopFacts } from './stop-facts';
import type { PaymentCheckView } from './payment-check';
import type { TaskMoney } from '../money-views';
import type { WaitingFor } from '../claimability';

/**
 * What the admin's task API returns (docs/api.md), defined once: the admin builds these and the
 * UI imports them as types only, so the two cannot drift apart.
 */
export interface GateView {
  gate1_unit_price_cent: number | null;
  gate2_panel_total_cent: number | null;
  gate3_submit_amount_cent: number | null;
  quantity_read: number | null;
}

/** One line of a task's 执行记录, as the admin activity writes it (newest last). */
export interface TimelineEntry {
  at: string;
  status: string;
  reason: string | null;
  /** for engineers: what the workflow or the phone wrote, in English */
  detail: string | null;
  actor: string | null;
  /** the detail as data, for the operator's sentence (./stop-facts-zh.ts); absent from entries written before */
  facts?: StopFacts;
}

/**
 * 草稿提示 (docs/api.md): a saved draft that is allowed but probably not what was meant, or a
 * live or started task the phones cannot carry out now (APP_VERSION_NOT_RELEASED,
 * NO_PHONE_CAN_CLAIM). Exactly these codes; the message is the operator's Chinese with the numbers.
 */
export interface DraftWarning {
  code:
    | 'CAP_BELOW_COLLECTED_PRICE'
    | 'QUANTITY_DIFFERS_FROM_ORDER'
    | 'CAP_FROM_INFERRED_PRICE'
    | 'MARGIN_TOO_LOW'
    | 'APP_VERSION_NOT_RELEASED'
    | 'NO_PHONE_CAN_CLAIM';
  message: string;
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
  /** which waiting task a free phone takes first: higher first, then the longest waiting (domain/purchase/priority.ts) */
  priority: number;
  reason_code: string | null;
  reason_zh: string | null;
  reason_next_zh: string | null;
  /**
   * What the phone (or the gates) read when the task stopped, as data: the facts of the timeline
   * entry that recorded the current stop. Null without a stop, and for stops recorded before
   * stops carried facts (their English detail stays on `attempt.failure_detail` and the timeline).
   */
  reason_facts: StopFacts | null;
  device_id: string | null;
  /** the device's display name (设备), also after it was revoked */
  device_name: string | null;
  /** the PDD account the phone is logged in as (设备); null when nobody said */
  pdd_account: string | null;
  /** what a person pays: the fenced 提交订单 amount, frozen when the task reached 待付款 */
  confirmed_total_cent: number | null;
  /** the read-only look at the phone's 待付款 list after 标记已付款; null: not marked paid here */
  payment_check: PaymentCheckView | null;
  /** its order line's sale beside this task's cost and margin; null for a task not made from one */
  money: TaskMoney | null;
  /** the 顺运宝 order line and its order number a draft was made from (null for a manual task) */
  syb_id: string | null;
  syb_order_no: string | null;
  /** the order line's own 规格 as the customer bought it, beside the PDD options chosen for it */
  order_line_spec: string | null;
  /** the PDD order number the phone read after submitting (or the operator entered) */
  pdd_order_no: string | null;
  shopee_goods_id: string | null;
  shopee_sku_id: string | null;
  workflow_id: string | null;
  authorization: { id: string; status: string; expires_at: string } | null;
  /** the gates of the task's current authorization; all null once it no longer holds one */
  gates: GateView;
  /** the current attempt's timeline, with 已取消 when the cancel came before any attempt */
  timeline: TimelineEntry[];
  attempt: {
    id: string;
    step: string | null;
    status: string;
    artifact_ref: string | null;
    failure_detail: string | null;
    timeline: unknown[];
    purchase: unknown;
  } | null;
  submission: {
    id: string;
    status: string;
    order_submitted_at: string | null;
    /** the PDD order number the submission led to */
    pdd_order_no: string | null;
    abandoned_at: string | null;
  } | null;
  evidence: Array<{ id: string; kind: string; captured_at: string }>;
  /** 草稿提示: worked out at every read from the collected price, the order line and the phones */
  warnings: DraftWarning[];
  /** PENDING with no phone free: every phone and why it cannot take the task now; empty otherwise */
  waiting_for: WaitingFor[];
  /** the machine's time: from start (or creation) to 待付款 or the end; null while the task has not finished */
  duration_seconds: number | null;
  /** from 待付款 to 标记已付款: the person's time, apart from 用时; null before it was paid */
  payment_wait_seconds: number | null;
  /** when an operator hid the finished task from the list; null while shown */
  removed_at: string | null;
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
  type: 'purchase';
  status: string;
  status_zh: string | null;
  title: string | null;
  shop_name: string | null;
  execution_mode: string | null;
  pdd_options: Record<string, string> | null;
  quantity: number | null;
  max_total_price_cent: number | null;
  reason_code: string | null;
  /** the display name of the device that ran (or runs) the task */
  device_name: string | null;
  device_id: string | null;
  /** the PDD account that phone is logged in as (设备); null when nobody said */
  pdd_account: string | null;
  /** what a person pays (待付款): the fenced 提交订单 amount; null before the order */
  confirmed_total_cent: number | null;
  /** after 标记已付款: what the look at the phone's 待付款 list found */
  payment_check: PaymentCheckView | null;
  version: number;
  /** which waiting task a free phone takes first (domain/purchase/priority.ts) */
  priority: number;
  /** the 顺运宝 order number */
  syb_order_no: string | null;
  pdd_order_no: string | null;
  /** from start (or creation) to the end; null while the task has not finished */
  duration_seconds: number | null;
  removed_at: string | null;
  updated_at: string;
}
