import { sql } from 'kysely';
import { quietDay, type Overview, type OverviewDay, type OverviewPhone } from '../../domain/money-views';
import type { AdminDb } from '../db/database';
import { readOptionalSetting } from '../settings/settings';
import { daysOf, type DayRange } from './range';

/**
 * The overview reads the daily figures the triggers of migrations/0160_money.ts keep (a few rows
 * a day, whatever the number of tasks) and the tasks waiting for payment now (a partial index).
 */
export async function moneyOverview(db: AdminDb, range: DayRange): Promise<Overview> {
  const days = new Map(daysOf(range).map((d) => [d, quietDay(d)]));
  for (const { day, stops, ...figures } of (await dayFigures(range).execute(db)).rows) {
    const entry = days.get(day);
    if (entry) Object.assign(entry, figures, { stops: JSON.parse(stops ?? '{}') as Record<string, number> });
  }
  const phones = (await phoneSums(range).execute(db)).rows;
  return {
    days: [...days.values()],
    phones: await phoneFigures(db, new Map(phones.map(({ key, ...p }) => [key, p]))),
    rate_set: (await readOptionalSetting(db, 'money.twd_to_cny_rate_ppm')) !== null,
  };
}

/*
 * A year holds about thirty `money_days` rows a day, two thirds of them per phone: each turned
 * into a JavaScript object cost more than everything else the overview does (measured in
 * bench/money-overview.ts), so SQLite sums them — one row a day, one row a phone.
 */
const sumOf = (metric: string, col: 'n' | 'amount') =>
  sql<number>`SUM(CASE WHEN metric = ${sql.lit(metric)} THEN ${sql.ref(col)} ELSE 0 END)`;

type DayRow = Omit<OverviewDay, 'date' | 'stops'> & { day: string; stops: string | null };

function dayFigures(range: DayRange) {
  return sql<DayRow>`SELECT day,
      ${sumOf('lines_in', 'n')} AS lines_in,
      ${sumOf('live_purchases', 'n')} AS live_purchases,
      ${sumOf('waiting_payment', 'n')} AS waiting_payment_count,
      ${sumOf('waiting_payment', 'amount')} AS waiting_payment_cny_cent,
      ${sumOf('paid', 'n')} AS paid_count,
      ${sumOf('paid', 'amount')} AS paid_cny_cent,
      ${sumOf('dry_runs', 'n')} AS dry_runs,
      SUM(CASE WHEN metric = 'margin' THEN amount END) AS margin_cny_cent,
      json_group_object(key, n) FILTER (WHERE metric = 'stops') AS stops
    FROM money_days
    WHERE day >= ${range.from} AND day <= ${range.to} AND metric NOT IN ('phone_purchases', 'phone_busy')
    GROUP BY day`;
}

/** `+metric`: the day range is the narrow part of the key; a search by metric would visit every day ever kept */
function phoneSums(range: DayRange) {
  return sql<{ key: string; purchases: number; busy_seconds: number }>`SELECT key,
      ${sumOf('phone_purchases', 'n')} AS purchases,
      ${sumOf('phone_busy', 'amount')} AS busy_seconds
    FROM money_days
    WHERE day >= ${range.from} AND day <= ${range.to} AND +metric IN ('phone_purchases', 'phone_busy')
    GROUP BY key`;
}

async function phoneFigures(
  db: AdminDb,
  inRange: Map<string, { purchases: number; busy_seconds: number }>,
): Promise<OverviewPhone[]> {
  const waiting = await db
    .selectFrom('tasks')
    .select([
      'device_id',
      (eb) => eb.fn.countAll<number>().as('n'),
      (eb) => eb.fn.sum<number>('confirmed_total_cent').as('cent'),
    ])
    .where('status', '=', 'WAITING_PAYMENT')
    .where('device_id', 'is not', null)
    .groupBy('device_id')
    .execute();
  const ids = new Set([...inRange.keys(), ...waiting.map((w) => w.device_id!)]);
  if (ids.size === 0) return [];
  const names = await db
    .selectFrom('device_credentials')
    .select(['device_id', 'display_name'])
    .where('device_id', 'in', [...ids])
    .execute();
  const nameOf = new Map(names.map((n) => [n.device_id, n.display_name]));
  const waitingOf = new Map(waiting.map((w) => [w.device_id!, w]));
  return [...ids]
    .map((id) => ({
      device_id: id,
      display_name: nameOf.get(id) ?? id,
      waiting_payment_count: Number(waitingOf.get(id)?.n ?? 0),
      waiting_payment_cny_cent: Number(waitingOf.get(id)?.cent ?? 0),
      purchases: inRange.get(id)?.purchases ?? 0,
      busy_seconds: inRange.get(id)?.busy_seconds ?? 0,
    }))
    .sort(
      (a, b) => b.waiting_payment_cny_cent - a.waiting_payment_cny_cent || a.display_name.localeCompare(b.display_name),
    );
}
