import { z } from 'zod';
import { isCalendarDay, taipeiDayStartUtc } from '../../domain/syb';

/** A year and a month of slack: a range longer than this is a mistake, not a report. */
const MAX_RANGE_DAYS = 400;

const DAY_MS = 86_400_000;

const isoDate = (field: string) =>
  z
    .string({ message: `${field} 须为日期 YYYY-MM-DD` })
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${field} 须为日期 YYYY-MM-DD`)
    .refine(isCalendarDay, { message: `${field} 不是一个存在的日期` });

/** `from` / `to`: Taipei days, inclusive, `to` not before `from`, at most MAX_RANGE_DAYS. */
export const dayRangeSchema = z.object({ from: isoDate('from'), to: isoDate('to') }).superRefine((r, ctx) => {
  const days = dayCount(r);
  if (days < 1) ctx.addIssue({ code: 'custom', path: ['to'], message: 'to 不能早于 from' });
  else if (days > MAX_RANGE_DAYS)
    ctx.addIssue({ code: 'custom', path: ['to'], message: `日期范围最多 ${MAX_RANGE_DAYS} 天` });
});
export type DayRange = { from: string; to: string };

function dayCount(r: DayRange): number {
  return Math.round((Date.parse(`${r.to}T00:00:00Z`) - Date.parse(`${r.from}T00:00:00Z`)) / DAY_MS) + 1;
}

/** Every day of the range, in order. */
export function daysOf(r: DayRange): string[] {
  const start = Date.parse(`${r.from}T00:00:00Z`);
  return Array.from({ length: dayCount(r) }, (_, i) => new Date(start + i * DAY_MS).toISOString().slice(0, 10));
}

/** The UTC instants `[start, end)` of the range's Taipei days, as stored timestamps compare. */
export function utcBounds(r: DayRange): { start: string; end: string } {
  return { start: taipeiDayStartUtc(r.from), end: taipeiDayStartUtc(r.to, 1) };
}
