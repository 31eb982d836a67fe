/**
 * The task API's shapes and state tables come from domain/purchase (the same modules the admin
 * uses, colours included); what is here is only the UI's own: the mode words and reading a refusal.
 */
import {
  column,
  isPurchaseStatus,
  isTerminal as isTerminalState,
  type StatusTone,
} from '../../../../domain/purchase/state-machine';
import {
  PURCHASE_STATUSES,
  STATUS_ZH,
  type ExecutionMode,
  type PurchaseStatus,
} from '../../../../domain/purchase/status';
import type { TaskListItem, TimelineEntry } from '../../../../domain/purchase/views';

export { PURCHASE_STATUSES, STATUS_ZH };
export type { ExecutionMode, PurchaseStatus, TaskListItem, TimelineEntry };

export { isPurchaseStatus };
export type { StatusTone };

/** Colour family per state (domain/purchase/state-machine.ts). */
export const STATUS_TONE: Readonly<Record<PurchaseStatus, StatusTone>> = column('tone');

/** Nothing more happens to a task in these states, so polling can stop. */
export function isTerminal(status: string): boolean {
  return isPurchaseStatus(status) && isTerminalState(status);
}

/** A live task that has not reached 提交订单 yet: the release gate still lies ahead of it. */
export function awaitsFence(t: { execution_mode: string | null; status: string }): boolean {
  return t.execution_mode === 'live' && ['DRAFT', 'PENDING', 'CLAIMED', 'ORDERING'].includes(t.status);
}

export function statusZh(s: string): string {
  return isPurchaseStatus(s) ? STATUS_ZH[s] : s;
}

const MODE_ZH: Readonly<Record<ExecutionMode, string>> = { dry_run: '试运行', live: '真实下单' };

export function modeZh(mode: string | null): string {
  return mode === 'live' || mode === 'dry_run' ? MODE_ZH[mode] : '—';
}

export interface StartRefusal {
  task_id: string;
  code: string;
  message: string;
}

/** `details.tasks` of a 409 START_REFUSED; [] for anything else. */
export function startRefusals(details: unknown): StartRefusal[] {
  return taskRefusals(details);
}

/** `details.tasks` of an all-or-nothing refusal (START_REFUSED, HIDE_REFUSED); [] for anything else. */
export function taskRefusals(details: unknown): StartRefusal[] {
  if (typeof details !== 'object' || details === null || !('tasks' in details) || !Array.isArray(details.tasks))
    return [];
  const out: StartRefusal[] = [];
  for (const t of details.tasks as unknown[]) {
    if (typeof t !== 'object' || t === null) continue;
    const r = t as Record<string, unknown>;
    if (typeof r.task_id === 'string') {
      out.push({
        task_id: r.task_id,
        code: typeof r.code === 'string' ? r.code : '',
        message: typeof r.message === 'string' ? r.message : '',
      });
    }
  }
  return out;
}

export function isTimelineEntry(v: unknown): v is TimelineEntry {
  return (
    typeof v === 'object' &&
    v !== null &&
    'at' in v &&
    typeof v.at === 'string' &&
    'status' in v &&
    typeof v.status === 'string'
  );
}

/** 'a: b / c: d' for a task's options, in the order the operator gave them. */
export function optionsText(options: Record<string, string> | null | undefined): string {
  if (!options) return '—';
  const parts = Object.entries(options).map(([k, v]) => `${k}：${v}`);
  return parts.length > 0 ? parts.join(' / ') : '—';
}
