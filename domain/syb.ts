import { parseShopeeSpec } from './shopee-spec';

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
  return parsed.ok ? JSON.stringify(['parsed', parsed.color, parsed.size, parsed.advice]) : JSON.stringify(['raw', spec.trim()]);
}

/** Derived, never stored: 已匹配 / SKU 未收录 / 待匹配. */
export const MATCH_STATES = ['matched', 'sku_unknown', 'unmatched'] as const;
export type MatchState = (typeof MATCH_STATES)[number];

export const MATCH_STATE_ZH: Record<MatchState, string> = {
  matched: '已匹配',
  sku_unknown: 'SKU 未收录',
  unmatched: '待匹配',
};

export function matchState(line: { shopee_sku_id: string | null }, goodsHasLocalSku: boolean): MatchState {
  if (line.shopee_sku_id !== null) return 'matched';
  return goodsHasLocalSku ? 'unmatched' : 'sku_unknown';
}

/**
 * Task states in which an order line is still being bought, or was bought: while its task is
 * in one of these, no second draft is made for the line (DB: uq_tasks_live_syb_line). A
 * cancelled, failed or dry-run-passed task frees the line for a new draft.
 */
export const LIVE_LINE_TASK_STATES = ['DRAFT', 'PENDING', 'CLAIMED', 'ORDERING', 'NEEDS_MANUAL', 'WAITING_PAYMENT', 'RECONCILIATION_REQUIRED', 'SUCCEEDED'] as const;

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
export const DRAFT_REFUSALS = {
  SYB_ORDER_NOT_FOUND: '没有这条订单明细，请先同步顺运宝',
  ALREADY_DRAFTED: '这条订单明细已有进行中的采购任务',
  SKU_UNKNOWN: '未匹配蝦皮规格：请先为这条明细设置蝦皮 SKU',
  NO_PDD_LINK: '商品还没有关联拼多多链接',
  NO_MAPPING: '这个蝦皮规格在当前拼多多商品下还没有规格映射',
  OPTION_UNAVAILABLE: '映射的拼多多规格已不可选（缺货或已下架），请重新采集或重新映射',
  PRICE_UNKNOWN: '映射的拼多多规格没有采集到价格，请重新采集',
  OVER_MAX_QUANTITY: '数量超过安全上限 safety.max_quantity',
} as const;
export type DraftRefusal = keyof typeof DRAFT_REFUSALS;
