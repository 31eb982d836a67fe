/**
 * The task API's shapes come from domain/purchase/views.ts as types only (nothing of the server
 * reaches the bundle); the small value tables below are the UI's own.
 */
import type { PurchaseStatus as DomainPurchaseStatus } from '../../../../domain/purchase/status';
import type { GateView, TaskListItem, TaskView } from '../../../../domain/purchase/views';

export type { TaskListItem, TaskView };

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
] as const satisfies readonly DomainPurchaseStatus[];
// The values are the UI's own (it imports only types from domain/); this line and the
// Record<PurchaseStatus, …> tables below make a state added to domain/ fail the UI typecheck.
export type PurchaseStatus = DomainPurchaseStatus;
const _everyStateListed: Exclude<PurchaseStatus, (typeof PURCHASE_STATUSES)[number]> extends never ? true : never = true;
void _everyStateListed;

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

export type Gates = GateView;


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
