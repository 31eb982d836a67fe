import { isCalendarDay, taipeiDay } from '../../../../domain/syb';
import type { OverviewDay } from '../../api/money';
import { isReasonCode, reasonZh } from '../tasks/reasons';
import { isPurchaseStatus, statusZh } from '../tasks/types';

/** The range the page shows: a preset follows today; a picked range stays put. */
export type OverviewRange = { kind: 'preset'; days: number } | { kind: 'custom'; from: string; to: string };

export const PRESETS = [7, 30, 90] as const;
const DEFAULT_DAYS = 30;

const DAY_MS = 86_400_000;

/** `days` days back from `day`: the business day is the Taipei day, so plain UTC calendar arithmetic is exact. */
function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Today in Taipei, whatever the operator's computer says its zone is. */
export const todayTaipei = (now: Date = new Date()): string => taipeiDay(now);

/** `from`/`to` of a range, today being the Taipei day; a preset of 7 days ends today and holds 7 days. */
export function rangeDays(r: OverviewRange, today: string = todayTaipei()): { from: string; to: string } {
  return r.kind === 'preset' ? { from: addDays(today, 1 - r.days), to: today } : { from: r.from, to: r.to };
}

/** The range in the hash (`?days=7` or `?from=…&to=…`); anything else is the default. */
export function rangeFromQuery(q: URLSearchParams): OverviewRange {
  const from = q.get('from') ?? '';
  const to = q.get('to') ?? '';
  if (isCalendarDay(from) && isCalendarDay(to)) return { kind: 'custom', from, to };
  const days = Number(q.get('days'));
  return { kind: 'preset', days: (PRESETS as readonly number[]).includes(days) ? days : DEFAULT_DAYS };
}

/** Why the picked range is not asked for, in Chinese; null when it is fine (the admin checks the rest). */
export function rangeProblem(from: string, to: string): string | null {
  if (!isCalendarDay(from) || !isCalendarDay(to)) return '请选择开始和结束日期';
  return from > to ? '开始日期不能晚于结束日期' : null;
}

/**
 * A stop's operator text: its reason, or the state it stopped in when it came without a reason
 * code (需人工处理 …); codes this UI does not know all read 其他原因 and are counted together.
 */
function stopLabel(code: string): string {
  if (isReasonCode(code)) return reasonZh(code);
  return isPurchaseStatus(code) ? `${statusZh(code)}（未注明原因）` : '其他原因';
}

/** Stops of one day by their Chinese text, most first. */
export function stopsByLabel(stops: Record<string, number>): Array<[string, number]> {
  const byLabel = new Map<string, number>();
  for (const [code, n] of Object.entries(stops)) {
    if (n > 0) byLabel.set(stopLabel(code), (byLabel.get(stopLabel(code)) ?? 0) + n);
  }
  return [...byLabel].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0], 'zh-CN'));
}

/** Every stop reason of the range (Chinese text), most stops first: the stop chart's series. */
export function stopLabelsOfRange(days: readonly OverviewDay[]): string[] {
  const total = new Map<string, number>();
  for (const d of days) for (const [label, n] of stopsByLabel(d.stops)) total.set(label, (total.get(label) ?? 0) + n);
  return [...total].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0], 'zh-CN')).map(([label]) => label);
}

export const stopTotal = (stops: Record<string, number>): number =>
  Object.values(stops).reduce((a, b) => a + (b > 0 ? b : 0), 0);

/** Sum of amounts a day may lack (no margin: nothing reached 待付款, or no rate then); null when every day does. */
export function sumKnown(values: ReadonlyArray<number | null>): number | null {
  const known = values.filter((v): v is number => v !== null);
  return known.length === 0 ? null : known.reduce((a, b) => a + b, 0);
}

/** A day with nothing to tell, shown quieter so the busy days stand out. */
export const isQuietDay = (d: OverviewDay): boolean =>
  d.lines_in + d.live_purchases + d.waiting_payment_count + d.paid_count + d.dry_runs + stopTotal(d.stops) === 0;

/** 忙碌时长: '—' for none, else hours and minutes (seconds only below a minute). */
export function busyText(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds <= 0) return '—';
  if (seconds < 60) return `${Math.round(seconds)}秒`;
  const minutes = Math.floor(seconds / 60);
  return minutes < 60 ? `${minutes}分` : `${Math.floor(minutes / 60)}小时${minutes % 60}分`;
}

/** '2026-08-07' → '08-07' on an axis, where the year is the same for every bar. */
export const shortDay = (day: string): string => day.slice(5);
