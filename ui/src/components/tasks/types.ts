/**
 * Shapes of the admin's task API (admin/purchase/queries.ts). Mirrored rather than imported:
 * the UI is built on its own and must not pull server modules into the bundle.
 */

export const PURCHASE_STATUSES = [
  'DRAFT',
  'PENDING',
  'CLAIMED',
  'ORDERING',
  'NEEDS_MANUAL',
  'WAITING_PAYMENT',
  'RECONCILIATION_REQUIRED',
  'DRY_RUN_PASSED',
  'SUCCEEDED',
  'FAILED',
  'CANCELED',
] as const;
export type PurchaseStatus = (typeof PURCHASE_STATUSES)[number];

/** Same words as domain/purchase/status.ts STATUS_ZH; the server sends status_zh where it can. */
export const STATUS_ZH: Readonly<Record<PurchaseStatus, string>> = {
  DRAFT: '草稿',
  PENDING: '待领取',
  CLAIMED: '已领取',
  ORDERING: '下单中',
  NEEDS_MANUAL: '需人工处理',
  WAITING_PAYMENT: '待付款',
  RECONCILIATION_REQUIRED: '待核对',
  DRY_RUN_PASSED: '试运行通过',
  SUCCEEDED: '已完成',
  FAILED: '失败',
  CANCELED: '已取消',
};

/** Colour family per state: what the operator must notice first. */
export type StatusTone = 'neutral' | 'active' | 'attention' | 'danger' | 'ok' | 'done';
export const STATUS_TONE: Readonly<Record<PurchaseStatus, StatusTone>> = {
  DRAFT: 'neutral',
  PENDING: 'active',
  CLAIMED: 'active',
  ORDERING: 'active',
  NEEDS_MANUAL: 'attention',
  WAITING_PAYMENT: 'attention',
  RECONCILIATION_REQUIRED: 'danger',
  DRY_RUN_PASSED: 'ok',
  SUCCEEDED: 'ok',
  FAILED: 'danger',
  CANCELED: 'done',
};

/** Nothing more happens to a task in these states, so polling can stop. */
export const TERMINAL_STATES: ReadonlySet<string> = new Set(['SUCCEEDED', 'FAILED', 'CANCELED', 'DRY_RUN_PASSED']);

export function isPurchaseStatus(s: string): s is PurchaseStatus {
  return (PURCHASE_STATUSES as readonly string[]).includes(s);
}

export function statusZh(s: string): string {
  return isPurchaseStatus(s) ? STATUS_ZH[s] : s;
}

export type ExecutionMode = 'dry_run' | 'live';
export const MODE_ZH: Readonly<Record<ExecutionMode, string>> = { dry_run: '试运行', live: '真实下单' };

export function modeZh(mode: string | null): string {
  return mode === 'live' || mode === 'dry_run' ? MODE_ZH[mode] : '—';
}

export interface TaskListItem {
  task_id: string;
  type: 'purchase' | 'collect';
  status: string;
  status_zh: string | null;
  title: string | null;
  shop_name: string | null;
  execution_mode: string | null;
  quantity: number | null;
  max_total_price_cent: number | null;
  reason_code: string | null;
  version: number;
  duration_seconds: number | null;
  updated_at: string;
  /** Not in the list contract today; shown when the server offers it. */
  pdd_options?: Record<string, string> | null;
}

export interface TaskPage {
  items: TaskListItem[];
  next_cursor: string | null;
}

export interface TimelineEntry {
  at: string;
  status: string;
  reason: string | null;
  detail: string | null;
  actor: string | null;
}

export interface Gates {
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
  order_no: string | null;
  workflow_id: string | null;
  authorization: { id: string; status: string; expires_at: string } | null;
  gates: Gates;
  attempt: {
    id: string;
    step: string | null;
    status: string;
    artifact_ref: string | null;
    failure_detail: string | null;
    timeline: unknown[];
    purchase: unknown;
  } | null;
  submission: { id: string; status: string; order_submitted_at: string | null; order_no: string | null } | null;
  evidence: Array<{ id: string; kind: string; captured_at: string }>;
  created_at: string;
  updated_at: string;
}

export interface StartRefusal {
  task_id: string;
  code: string;
  message: string;
}

/** `details.tasks` of a 409 START_REFUSED; [] for anything else. */
export function startRefusals(details: unknown): StartRefusal[] {
  if (typeof details !== 'object' || details === null || !('tasks' in details) || !Array.isArray(details.tasks)) return [];
  const out: StartRefusal[] = [];
  for (const t of details.tasks as unknown[]) {
    if (typeof t !== 'object' || t === null) continue;
    const r = t as Record<string, unknown>;
    if (typeof r.task_id === 'string') {
      out.push({ task_id: r.task_id, code: typeof r.code === 'string' ? r.code : '', message: typeof r.message === 'string' ? r.message : '' });
    }
  }
  return out;
}

export function isTimelineEntry(v: unknown): v is TimelineEntry {
  return typeof v === 'object' && v !== null && 'at' in v && typeof v.at === 'string' && 'status' in v && typeof v.status === 'string';
}

/** 'a: b / c: d' for a task's options, in the order the operator gave them. */
export function optionsText(options: Record<string, string> | null | undefined): string {
  if (!options) return '—';
  const parts = Object.entries(options).map(([k, v]) => `${k}：${v}`);
  return parts.length > 0 ? parts.join(' / ') : '—';
}
