import type Database from 'better-sqlite3';
import { lineMoney } from '../domain/margin';
import { daysOf, type DayRange } from '../admin/money/range';
import { quietDay, type Overview, type OverviewPhone } from '../domain/money-views';

/**
 * The money overview's figures worked out again straight from the rows — 顺运宝 lines, tasks,
 * submissions, attempts — by plain GROUP BYs and domain/margin.ts, never from `money_days`: what
 * the triggers of migrations/0160_money.ts must have summed. An event whose trace the rows no
 * longer show (a stop later reset to a draft) is not here; the caller adds it.
 */
const STOPS = `'NEEDS_MANUAL', 'RECONCILIATION_REQUIRED', 'FAILED'`;
const DAY = (col: string) => `date(${col}, '+8 hours')`;
/** what a person pays for the task: its live submission's 提交订单 amount */
const AMOUNT = `COALESCE((SELECT s.gate3_submit_amount_cent FROM order_submissions s
  WHERE s.task_id = t.task_id AND s.abandoned_at IS NULL ORDER BY s.created_at DESC LIMIT 1), 0)`;

export function directOverview(db: Database.Database, range: DayRange): Overview {
  const inRange = (col: string) => `${DAY(col)} BETWEEN @from AND @to`;
  const rows = <T>(q: string): T[] => db.prepare(q).all(range) as T[];
  const days = new Map(daysOf(range).map((d) => [d, quietDay(d)]));
  const day = (d: string) => days.get(d)!;

  for (const r of rows<{ d: string; n: number }>(
    `SELECT ${DAY('created_at')} AS d, COUNT(*) AS n FROM syb_orders WHERE ${inRange('created_at')} GROUP BY d`,
  ))
    day(r.d).lines_in = r.n;
  for (const r of rows<{ d: string; n: number }>(
    `SELECT ${DAY('order_submitted_at')} AS d, COUNT(*) AS n FROM order_submissions WHERE ${inRange('order_submitted_at')} GROUP BY d`,
  ))
    day(r.d).live_purchases = r.n;
  for (const r of rows<{ d: string; n: number; cent: number }>(
    `SELECT ${DAY('waiting_payment_at')} AS d, COUNT(*) AS n, SUM(${AMOUNT}) AS cent FROM tasks t WHERE ${inRange('waiting_payment_at')} GROUP BY d`,
  ))
    Object.assign(day(r.d), { waiting_payment_count: r.n, waiting_payment_cny_cent: r.cent });
  for (const r of rows<{ d: string; n: number; cent: number }>(
    `SELECT ${DAY('paid_at')} AS d, COUNT(*) AS n, SUM(${AMOUNT}) AS cent FROM tasks t WHERE ${inRange('paid_at')} GROUP BY d`,
  ))
    Object.assign(day(r.d), { paid_count: r.n, paid_cny_cent: r.cent });
  for (const r of rows<{ d: string; n: number }>(
    `SELECT ${DAY('updated_at')} AS d, COUNT(*) AS n FROM tasks
     WHERE execution_mode = 'dry_run' AND status IN ('DRY_RUN_PASSED', ${STOPS}) AND ${inRange('updated_at')} GROUP BY d`,
  ))
    day(r.d).dry_runs = r.n;
  for (const r of rows<{ d: string; reason: string; n: number }>(
    `SELECT ${DAY('updated_at')} AS d, COALESCE(reason_code, status) AS reason, COUNT(*) AS n FROM tasks
     WHERE task_type = 'purchase' AND status IN (${STOPS}) AND ${inRange('updated_at')} GROUP BY d, reason`,
  ))
    day(r.d).stops[r.reason] = r.n;
  // the margin of each purchase that reached 待付款 in the range, by domain/margin.ts at its frozen rates
  const priced = db.prepare(
    `SELECT ${DAY('t.waiting_payment_at')} AS d, t.money_rate_ppm AS rate, t.money_fee_bp AS fee, t.money_line_fee_cny_cent AS lineFee,
       ${AMOUNT} AS cost, (SELECT s.task_id FROM order_submissions s WHERE s.task_id = t.task_id AND s.abandoned_at IS NULL LIMIT 1) AS fenced,
       o.price_twd_cent AS sale, o.quantity AS quantity
     FROM tasks t JOIN syb_orders o ON o.syb_id = t.syb_id
     WHERE ${inRange('t.waiting_payment_at')} AND t.money_rate_ppm IS NOT NULL AND o.price_twd_cent IS NOT NULL`,
  );
  for (const r of priced.iterate(range) as Iterable<{
    d: string;
    rate: number;
    fee: number;
    lineFee: number;
    cost: number;
    fenced: string | null;
    sale: number;
    quantity: number;
  }>) {
    const money = lineMoney(
      { saleTwdCent: r.sale, quantity: r.quantity },
      { ratePpm: r.rate, feeBp: r.fee, lineFeeCnyCent: r.lineFee },
      r.fenced === null ? null : r.cost,
    );
    if (money?.marginCnyCent == null) continue;
    day(r.d).margin_cny_cent = (day(r.d).margin_cny_cent ?? 0) + money.marginCnyCent;
  }
  return { days: [...days.values()], phones: directPhones(db, range), rate_set: rateSet(db) };
}

function directPhones(db: Database.Database, range: DayRange): OverviewPhone[] {
  const inRange = (col: string) => `${DAY(col)} BETWEEN @from AND @to`;
  const phones = new Map<string, OverviewPhone>();
  const phone = (id: string) =>
    phones.get(id) ??
    phones
      .set(id, {
        device_id: id,
        display_name: id,
        waiting_payment_count: 0,
        waiting_payment_cny_cent: 0,
        purchases: 0,
        busy_seconds: 0,
      })
      .get(id)!;
  const q = <T>(sql: string, params: object = {}) => db.prepare(sql).all(params) as T[];
  for (const r of q<{ id: string; n: number; cent: number }>(
    `SELECT device_id AS id, COUNT(*) AS n, SUM(${AMOUNT}) AS cent FROM tasks t WHERE status = 'WAITING_PAYMENT' AND device_id IS NOT NULL GROUP BY device_id`,
  ))
    Object.assign(phone(r.id), { waiting_payment_count: r.n, waiting_payment_cny_cent: r.cent });
  for (const r of q<{ id: string; n: number }>(
    `SELECT a.device_id AS id, COUNT(*) AS n FROM order_submissions s JOIN purchase_attempts a ON a.id = s.attempt_id
     WHERE ${inRange('s.order_submitted_at')} GROUP BY a.device_id`,
    range,
  ))
    phone(r.id).purchases = r.n;
  for (const r of q<{ id: string; s: number }>(
    `SELECT device_id AS id, SUM(MAX(0, CAST(strftime('%s', finished_at) AS INTEGER) - CAST(strftime('%s', started_at) AS INTEGER))) AS s
     FROM purchase_attempts WHERE ${inRange('finished_at')} GROUP BY device_id`,
    range,
  ))
    phone(r.id).busy_seconds = r.s;
  for (const r of q<{ id: string; name: string }>(
    'SELECT device_id AS id, display_name AS name FROM device_credentials',
  ))
    if (phones.has(r.id)) phone(r.id).display_name = r.name;
  return [...phones.values()].sort((a, b) => a.device_id.localeCompare(b.device_id));
}

function rateSet(db: Database.Database): boolean {
  const row = db
    .prepare("SELECT value_json FROM app_settings WHERE setting_key = 'money.twd_to_cny_rate_ppm'")
    .get() as { value_json: string } | undefined;
  return row !== undefined && JSON.parse(row.value_json) !== null;
}

/** The two overviews in one order (phones by id), to compare as values. */
export function comparable(o: Overview): Overview {
  return {
    ...o,
    days: o.days.map((d) => ({
      ...d,
      stops: Object.fromEntries(Object.entries(d.stops).sort(([a], [b]) => a.localeCompare(b))),
    })),
    phones: [...o.phones].sort((a, b) => a.device_id.localeCompare(b.device_id)),
  };
}

/** The first figure on which two overviews differ, or null when they agree. */
export function firstDifference(got: Overview, want: Overview): string | null {
  const a = comparable(got);
  const b = comparable(want);
  if (a.rate_set !== b.rate_set) return `rate_set ${a.rate_set} ≠ ${b.rate_set}`;
  for (let i = 0; i < Math.max(a.days.length, b.days.length); i++)
    if (JSON.stringify(a.days[i]) !== JSON.stringify(b.days[i]))
      return `day ${b.days[i]?.date ?? a.days[i]?.date}: ${JSON.stringify(a.days[i])} ≠ ${JSON.stringify(b.days[i])}`;
  if (JSON.stringify(a.phones) !== JSON.stringify(b.phones))
    return `phones: ${JSON.stringify(a.phones)} ≠ ${JSON.stringify(b.phones)}`;
  return null;
}
