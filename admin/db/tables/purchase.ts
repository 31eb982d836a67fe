import type { Generated } from 'kysely';
import type { AttemptStatus, AuthorizationStatus, SubmissionStatus } from '../../../domain/purchase/record-states';
import type { ExecutionMode } from '../../../domain/purchase/status';

export type { AuthorizationStatus };

/** Columns the purchase part adds to `tasks` (migrations 0020, 0033, 0034); null on collect rows. */
interface PurchaseTaskColumns {
  title: string | null;
  shop_name: string | null;
  source: 'manual' | 'syb' | null;
  source_ref: string | null;
  pdd_options: string | null;
  quantity: number | null;
  max_total_price_cent: number | null;
  execution_mode: ExecutionMode | null;
  authorization_id: string | null;
  reason_code: string | null;
  /** the PDD order number the phone read (0033 renamed it from `order_no`); the 顺运宝 one is `syb_order_no` */
  pdd_order_no: string | null;
  started_at: string | null;
  created_by: string | null;
  /** hidden from the task list by an operator (0034); only terminal tasks are */
  removed_at: string | null;
  /** which waiting task a free phone takes first (0080, domain/purchase/priority.ts) */
  priority: Generated<number>;
  /** 0160: frozen by a trigger when the task first reaches 待付款 (migrations/0160_money.ts) */
  money_rate_ppm: number | null;
  money_fee_bp: number | null;
  money_line_fee_cny_cent: number | null;
  /** the fenced submission's 提交订单 amount: what a person pays */
  confirmed_total_cent: number | null;
  waiting_payment_at: string | null;
  paid_at: string | null;
}

/** 0160: the overview's daily figures, kept by triggers (migrations/0160_money.ts) */
interface MoneyDaysTable {
  /** the Taipei business day, YYYY-MM-DD */
  day: string;
  metric: string;
  /** a reason code, a device id, or '' */
  key: string;
  n: number;
  amount: number;
}

interface OrderAuthorizationsTable {
  id: string;
  task_id: string;
  task_version: number;
  start_key: string;
  goods_id: string;
  pdd_options: string;
  quantity: number;
  max_total_price_cent: number;
  execution_mode: ExecutionMode;
  status: AuthorizationStatus;
  workflow_id: string;
  workflow_started_at: string | null;
  created_by: string;
  created_at: string;
  expires_at: string;
  closed_at: string | null;
}

interface PurchaseAttemptsTable {
  id: string;
  task_id: string;
  authorization_id: string;
  device_id: string;
  workflow_id: string;
  status: AttemptStatus;
  step: string | null;
  gate1_unit_price_cent: number | null;
  gate2_panel_total_cent: number | null;
  quantity_read: number | null;
  gate3_submit_amount_cent: number | null;
  confirmed_options: string | null;
  failure_code: string | null;
  failure_detail: string | null;
  artifact_ref: string | null;
  purchase_json: string | null;
  timeline_json: string;
  started_at: string;
  finished_at: string | null;
}

interface OrderSubmissionsTable {
  id: string;
  task_id: string;
  authorization_id: string;
  attempt_id: string;
  status: SubmissionStatus;
  gate1_unit_price_cent: number;
  gate2_panel_total_cent: number;
  quantity_read: number;
  gate3_submit_amount_cent: number;
  order_submitted_at: string | null;
  /** the PDD order number (0075 renamed it from `order_no`) */
  pdd_order_no: string | null;
  created_at: string;
  resolved_at: string | null;
  /** fenced but never tapped: the workflow got no answer from the fence and stopped (0021) */
  abandoned_at: string | null;
  /** when the matched order was placed, UTC (0033) */
  ordered_at: string | null;
}

export interface PurchaseTables {
  /** joined with the collect columns of CatalogTables['tasks'] by the schema's intersection */
  tasks: PurchaseTaskColumns;
  order_authorizations: OrderAuthorizationsTable;
  purchase_attempts: PurchaseAttemptsTable;
  order_submissions: OrderSubmissionsTable;
  /** tasks per status, kept by triggers (migration 0033): the task list's `total` */
  task_counts: { status: string; n: number };
  /** raised by triggers on every change the task list shows (migration 0135): its page cache's key */
  task_list_version: { id: number; n: number };
  money_days: MoneyDaysTable;
  payment_checks: PaymentChecksTable;
}

/** 0161: the read-only look at a phone's 待付款 list after 标记已付款 (migrations/0161_payment_checks.ts) */
interface PaymentChecksTable {
  task_id: string;
  device_id: string;
  pdd_order_no: string | null;
  status: 'pending' | 'confirmed' | 'mismatch' | 'unavailable';
  requested_at: string;
  checked_at: string | null;
  message: string | null;
}
