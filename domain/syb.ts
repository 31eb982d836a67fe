import { parseShopeeSpec } from './shopee-spec';
import { API_ERROR_CODES } from './api-errors';
import { statesWhere } from './purchase/state-machine';

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

/** C0, DEL and C1 control characters (NUL, CR, LF, ESC…): refused in settings, masked in shown SYB data. */
const isControl = (code: number) => code <= 0x1f || (code >= 0x7f && code <= 0x9f);

export function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (isControl(text.charCodeAt(i))) return true;
  return false;
}

export function maskControlCharacters(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) out += isControl(text.charCodeAt(i)) ? '?' : text[i];
  return out;
}

/** Taipei has no daylight saving time: local time is UTC + 8 h all year. */
const TAIPEI_OFFSET_MS = 8 * 3600_000;

/** The Taipei calendar day (`YYYY-MM-DD`) of an instant. */
export function taipeiDay(instant: Date): string {
  return new Date(instant.getTime() + TAIPEI_OFFSET_MS).toISOString().slice(0, 10);
}

/** A `YYYY-MM-DD` that is on the calendar: 2026-02-30 has the shape and is no day. */
export function isCalendarDay(day: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return false;
  const ms = Date.parse(`${day}T00:00:00Z`);
  return Number.isFinite(ms) && new Date(ms).toISOString().slice(0, 10) === day;
}

/** The first UTC instant of the Taipei day `plusDays` after `day` (a calendar day), as stored timestamps compare. */
export function taipeiDayStartUtc(day: string, plusDays = 0): string {
  return `${new Date(Date.parse(`${day}T00:00:00Z`) + plusDays * 86_400_000 - TAIPEI_OFFSET_MS).toISOString().slice(0, 19)}Z`;
}

/** `"2026-11-30 09:15:00"` Taipei local → `2026-11-30T01:15:00Z`; null when it is not that shape. */
export function taipeiLocalToUtc(local: string): string | null {
  const m = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})$/.exec(local);
  if (!m) return null;
  const ms = Date.parse(`${m[1]}T${m[2]}Z`);
  if (Number.isNaN(ms)) return null;
  // Date.parse rolls some impossible times over (02-30 → 03-02): only a round trip is a real time.
  if (new Date(ms).toISOString().slice(0, 19) !== `${m[1]}T${m[2]}`) return null;
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

/**
 * Derived, never stored: 数据异常 (SYB sent a line the adapter cannot use), 可采购 (the SKU is
 * mapped to an available, priced PDD combination), 已匹配 (a SKU, but no purchase can be made
 * from it yet), SKU 未收录, 待匹配.
 */
export const MATCH_STATES = ['invalid', 'ready', 'matched', 'sku_unknown', 'unmatched'] as const;
export type MatchState = (typeof MATCH_STATES)[number];

export const MATCH_STATE_ZH: Record<MatchState, string> = {
  invalid: '数据异常',
  ready: '可采购',
  matched: '已匹配',
  sku_unknown: 'SKU 未收录',
  unmatched: '待匹配',
};

/**
 * Task states in which an order line is still being bought, or was bought: while its task is
 * in one of these, no second draft is made for the line (DB: uq_tasks_live_syb_line) and 订单
 * shows that task for it. A cancelled, failed or dry-run-passed task frees the line for a new
 * draft. The state machine's `holdsOrderLine` column (domain/purchase/state-machine.ts).
 */
export const LIVE_LINE_TASK_STATES = statesWhere('holdsOrderLine');

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
  'INVALID_LINE',
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
  /** the 顺运宝 order number */
  syb_order_no: string;
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
  /** why SYB's line cannot be used (Chinese), when `match_state` is `invalid` */
  data_problem: string | null;
  /** the Shopee product is imported (else 「去商品页添加规格」 leads to the import) */
  shopee_product_known: boolean;
  /** the spec text of `shopee_sku_id`, shown beside it */
  shopee_sku_spec: string | null;
  /** the SKU's spec does not read as the line's 规格 (set by hand after 规格不一致 was confirmed) */
  spec_mismatch: boolean;
  task_id: string | null;
  task_status: string | null;
  /**
   * the line's draft after a re-collect raised its price above the cap (MARGIN_TOO_LOW when it
   * also earns less than 设置 → 最低毛利率); null otherwise (admin/purchase/price-watch.ts)
   */
  task_price_flag: { code: 'MARGIN_TOO_LOW' | 'CAP_BELOW_COLLECTED_PRICE'; message: string } | null;
}

/**
 * Hard limits on what one sync takes from SYB (docs/syb-protocol.md, "Limits"): beyond them a
 * field, a line, a page or an answer is refused and logged with its shipment id, so a hostile
 * or broken answer costs bounded time and space.
 */
export const SYB_LIMITS = {
  // pages, lines and bytes of a whole sync are the operator's settings (domain/settings.ts `syb.sync_max_*`)
  linesPerShipment: 1000,
  /** bytes of one answer body */
  answerBytes: 32 * 1024 * 1024,
  /**
   * What one answer may make JSON.parse build (admin/syb/answer-parser.ts counts it first): a
   * 100,000-line shipment is about 2 million values and 100,000 objects. At these budgets the
   * costliest answer measured (half a million objects, each with a key of its own, and millions
   * of distinct short strings) holds under 300 MB of the parser thread's 512.
   */
  answerValues: 3_000_000,
  answerContainers: 500_000,
  answerDepth: 64,
  idChars: 100,
  titleChars: 500,
  specChars: 500,
  imageUrlChars: 2000,
  productIdChars: 40,
  /** shipments named for a retry by the next sync */
  retryShipments: 500,
} as const;
