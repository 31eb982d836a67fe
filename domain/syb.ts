import { parseShopeeSpec } from './shopee-spec';
import { API_ERROR_CODES } from './api-errors';

/**
 * 顺运宝 order lines (docs/syb-protocol.md): the rules that are not wire protocol — the TWD
 * price in cents, the Taipei day of the list filter, the spec text used for auto-matching, and
 * the derived matching state.
 */

const TWD_YUAN = /^(\d{1,12})(?:\.(\d{1,3}))?$/;

/**
 * `"1005.50"` 元 → 100550 cents, rounded half-up on the third decimal, by string and integer
 * arithmetic only: `1.005 * 100` is 100.49999999999999 as a float, and must be 101.
 * Anything but a plain non-negative decimal with up to three decimals → null (unknown).
 */
export function twdYuanToCent(text: string): number | null {
  const m = TWD_YUAN.exec(text.trim());
  if (!m) return null;
  const frac = (m[2] ?? '').padEnd(3, '0');
  const cents = Number(m[1]) * 100 + Number(frac.slice(0, 2));
  const result = frac[2] !== undefined && frac[2] >= '5' ? cents + 1 : cents;
  return Number.isSafeInteger(result) ? result : null;
}

/** Taipei has no daylight saving time: local time is UTC + 8 h all year. */
const TAIPEI_OFFSET_MS = 8 * 3600_000;

/** The Taipei calendar day (`YYYY-MM-DD`) of an instant. */
export function taipeiDay(instant: Date): string {
  return new Date(instant.getTime() + TAIPEI_OFFSET_MS).toISOString().slice(0, 10);
}

/** `"2026-11-30 09:15:00"` Taipei local → `2026-11-30T01:15:00Z`; null when it is not that shape. */
export function taipeiLocalToUtc(local: string): string | null {
  const m = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})$/.exec(local);
  if (!m) return null;
  const ms = Date.parse(`${m[1]}T${m[2]}Z`);
  if (Number.isNaN(ms)) return null;
  return `${new Date(ms - TAIPEI_OFFSET_MS).toISOString().slice(0, 19)}Z`;
}

/**
 * What two spec texts must share to be "the same spec": the colour, size and advice as the
 * Shopee import parses them (`parseShopeeSpec`), or — for a text it cannot parse — the
 * trimmed text itself. Null for an empty spec, which matches nothing.
 */
export function specMatchKey(spec: string | null): string | null {
  if (spec === null || spec.trim() === '') return null;
  const parsed = parseShopeeSpec(spec);
  return parsed.ok
    ? JSON.stringify(['parsed', parsed.color, parsed.size, parsed.advice])
    : JSON.stringify(['raw', spec.trim()]);
}

/** Derived, never stored: 已匹配 / SKU 未收录 / 待匹配. */
export const MATCH_STATES = ['matched', 'sku_unknown', 'unmatched'] as const;
export type MatchState = (typeof MATCH_STATES)[number];

export const MATCH_STATE_ZH: Record<MatchState, string> = {
  matched: '已匹配',
  sku_unknown: 'SKU 未收录',
  unmatched: '待匹配',
};

/**
 * Task states in which an order line is still being bought, or was bought: while its task is
 * in one of these, no second draft is made for the line (DB: uq_tasks_live_syb_line). A
 * cancelled, failed or dry-run-passed task frees the line for a new draft.
 */
export const LIVE_LINE_TASK_STATES = [
  'DRAFT',
  'PENDING',
  'CLAIMED',
  'ORDERING',
  'NEEDS_MANUAL',
  'WAITING_PAYMENT',
  'RECONCILIATION_REQUIRED',
  'SUCCEEDED',
] as const;

/** One workflow id per manual trigger kind, so a second click finds the running one. */
export const SYB_SYNC_SCHEDULE_ID = 'syb-sync';
export const SYB_SYNC_MANUAL_WORKFLOW_ID = 'syb-sync/manual';

/** What a sync reports (and all its workflow ever sees): counts, never order data. */
export interface SybSyncCounts {
  pages: number;
  lines: number;
  new_lines: number;
  from_day: string;
  to_day: string;
}

/** Why no purchase draft was made from an order line (POST /api/tasks/from-orders). */
export const DRAFT_REFUSALS = pick(API_ERROR_CODES, [
  'SYB_ORDER_NOT_FOUND',
  'ALREADY_DRAFTED',
  'SKU_UNKNOWN',
  'NO_PDD_LINK',
  'NO_MAPPING',
  'OPTION_UNAVAILABLE',
  'PRICE_UNKNOWN',
  'OVER_MAX_QUANTITY',
] as const);
export type DraftRefusal = keyof typeof DRAFT_REFUSALS;

/** The refusals' Chinese comes from the one API error table, so a line's reason reads the same everywhere. */
function pick<K extends keyof typeof API_ERROR_CODES>(
  table: typeof API_ERROR_CODES,
  keys: readonly K[],
): { [P in K]: (typeof API_ERROR_CODES)[P] } {
  return Object.fromEntries(keys.map((k) => [k, table[k]])) as { [P in K]: (typeof API_ERROR_CODES)[P] };
}

/** `GET /api/syb/sync`: the admin answers it, the 订单 page reads it. */
export interface SybSyncStatus {
  running: boolean;
  last_synced_at: string | null;
  /** `CODE: message` of the last sync that failed, null once one succeeds */
  last_error: string | null;
  progress: { pages: number; lines: number };
}

/** One line of `GET /api/syb/orders`, defined once for the admin and the 订单 page. */
export interface OrderLineView {
  syb_id: string;
  order_no: string;
  title: string | null;
  product_spec: string | null;
  shopee_goods_id: string;
  shopee_sku_id: string | null;
  quantity: number;
  /** New Taiwan dollars in cents; null when SYB sent a price that is not a plain decimal */
  price_twd_cent: number | null;
  image_url: string | null;
  created_at: string;
  match_state: MatchState;
  task_id: string | null;
  task_status: string | null;
}
