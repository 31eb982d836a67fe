import type { Overview, OverviewDay, OverviewPhone } from '../../domain/money-views';

export type { Overview, OverviewDay, OverviewPhone };
import type { AdminDb } from '../db/database';
import { readOptionalSetting } from '../settings/settings';
import { daysOf, type DayRange } from './range';




const emptyDay = (date: string): OverviewDay => ({
  date,
  lines_in: 0,
  live_purchases: 0,
  waiting_payment_count: 0,
  waiting_payment_cny_cent: 0,
  paid_count: 0,
  paid_cny_cent: 0,
  dry_runs: 0,
  stops: {},
  margin_cny_cent: null,
});

/**
 * The overview reads the daily figures the triggers of migrations/0160_money.ts keep (a few rows
 * a day, whatever the number of tasks) and the tasks waiting for payment now (a partial index).
 */
export async function moneyOverview(db: AdminDb, range: DayRange): Promise<Overview> {
  const rows = await db
    .selectFrom('money_days')
    .select(['day', 'metric', 'key', 'n', 'amount'])
    .where('day', '>=', range.from)
    .where('day', '<=', range.to)
    .execute();
  const days = new Map(daysOf(range).map((d) => [d, emptyDay(d)]));
  const phones = new Map<string, { purchases: number; busy_seconds: number }>();
  const phone = (id: string) => phones.get(id) ?? phones.set(id, { purchases: 0, busy_seconds: 0 }).get(id)!;
  for (const r of rows) {
    const day = days.get(r.day);
    if (!day) continue;
    switch (r.metric) {
      case 'lines_in':
      case 'live_purchases':
      case 'dry_runs':
        day[r.metric] += r.n;
        break;
      case 'waiting_payment':
        day.waiting_payment_count += r.n;
        day.waiting_payment_cny_cent += r.amount;
        break;
      case 'paid':
        day.paid_count += r.n;
        day.paid_cny_cent += r.amount;
        break;
      case 'stops':
        day.stops[r.key] = (day.stops[r.key] ?? 0) + r.n;
        break;
      case 'margin':
        day.margin_cny_cent = (day.margin_cny_cent ?? 0) + r.amount;
        break;
      case 'phone_purchases':
        phone(r.key).purchases += r.n;
        break;
      case 'phone_busy':
        phone(r.key).busy_seconds += r.amount;
        break;
    }
  }
  return {
    days: [...days.values()],
    phones: await phoneFigures(db, phones),
    rate_set: (await readOptionalSetting(db, 'money.twd_to_cny_rate_ppm')) !== null,
  };
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
