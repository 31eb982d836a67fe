import { sql, type Kysely } from 'kysely';

/**
 * What each order earns (docs/api.md §16). Two things, both kept by triggers so every
 * writer of a task — the workflow's activities, a repair, the restore catch-up — keeps them right
 * without knowing about them:
 *
 * 1. A live purchase freezes, when it first reaches 待付款, the rate, Shopee's fee rate and the
 *    fee per line in force then, and its confirmed total (the fenced submission's 提交订单 amount,
 *    what a person pays): a rate changed later never rewrites a past margin.
 * 2. `money_days`: one row per Taipei day, figure and key (a reason code, a phone) with a count
 *    and an amount, so the overview of a year reads a few thousand rows however many tasks there
 *    are. An event counts on the day it happened: an order reaching 待付款 on Monday and paid on
 *    Tuesday is Monday's 待付款 and Tuesday's 已付款.
 *
 * The margin here is domain/margin.ts `lineMoney` in SQL (integer division of non-negative
 * numbers, rounding half up; only the final subtraction can go below zero). A test holds the
 * two to the same cents.
 */

/** the Taipei business day of a UTC timestamp column (domain/syb.ts taipeiDay) */
const DAY = (col: string) => `date(${col}, '+8 hours')`;

const add = (day: string, metric: string, key: string, amount = '0') =>
  `INSERT INTO money_days (day, metric, key, n, amount) VALUES (${day}, '${metric}', ${key}, 1, ${amount})
     ON CONFLICT (day, metric, key) DO UPDATE SET n = n + 1, amount = amount + excluded.amount;`;

/** An integer setting as stored by admin/settings/settings.ts (JSON), or null when unset. */
const SETTING = (key: string) =>
  `(SELECT json_extract(value_json, '$') FROM app_settings WHERE setting_key = '${key}' AND json_type(value_json) = 'integer')`;

/**
 * domain/margin.ts MAX_SALE_TWD_CENT as of this migration: beyond it `2 × sale × rate` could leave
 * SQLite's 64-bit integers (it would silently turn to floating point), and such a line is no sale.
 */
const MAX_SALE_TWD_CENT = 100_000_000_000;

/** the task's own line's sale in CNY cents at its frozen rate; null without a rate or a price */
const SALE_CNY = (t: string) =>
  `(SELECT (2 * o.price_twd_cent * o.quantity * ${t}.money_rate_ppm + 1000000) / 2000000
      FROM syb_orders o WHERE o.syb_id = ${t}.syb_id AND o.price_twd_cent >= 0
        AND o.price_twd_cent * o.quantity <= ${MAX_SALE_TWD_CENT})`;

/** fees of a sale `s`: Shopee's cut, rounded, plus the fixed cost of one line */
const FEES = (s: string, t: string) =>
  `((2 * ${s} * ${t}.money_fee_bp + 10000) / 20000 + ${t}.money_line_fee_cny_cent)`;

const MARGIN = (t: string) => `(${SALE_CNY(t)} - ${FEES(SALE_CNY(t), t)} - ${t}.confirmed_total_cent)`;

const ENTERED = (status: string) => `NEW.status = '${status}' AND OLD.status IS NOT '${status}'`;
const STOPS = `'NEEDS_MANUAL', 'RECONCILIATION_REQUIRED', 'FAILED'`;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const col of ['money_rate_ppm', 'money_fee_bp', 'money_line_fee_cny_cent', 'confirmed_total_cent'])
    await sql.raw(`ALTER TABLE tasks ADD COLUMN ${col} INTEGER`).execute(db);
  for (const col of ['waiting_payment_at', 'paid_at'])
    await sql.raw(`ALTER TABLE tasks ADD COLUMN ${col} TEXT`).execute(db);

  await sql`CREATE TABLE money_days (
    day TEXT NOT NULL,
    metric TEXT NOT NULL,
    key TEXT NOT NULL,
    n INTEGER NOT NULL,
    amount INTEGER NOT NULL,
    PRIMARY KEY (day, metric, key)
  ) WITHOUT ROWID`.execute(db);
  // the trigger below finds a task's submission by it (while the write lock is held), and so does
  // the backfill for every task: without it each arrival at 待付款 reads every submission
  await sql`CREATE INDEX idx_order_submissions_task ON order_submissions(task_id, created_at)`.execute(db);
  // the pay list's sum per phone reads only the tasks waiting for payment
  await sql`CREATE INDEX idx_tasks_waiting_payment ON tasks(device_id, confirmed_total_cent) WHERE status = 'WAITING_PAYMENT'`.execute(
    db,
  );
  // a line's task (admin/money/lines.ts), whatever its state: without it every line of a list or
  // an export scanned all tasks (an export of 10,000 lines took 25 s)
  await sql`CREATE INDEX idx_tasks_syb_line ON tasks(syb_id, created_at) WHERE syb_id IS NOT NULL`.execute(db);

  await sql
    .raw(
      `CREATE TRIGGER trg_money_lines_in AFTER INSERT ON syb_orders BEGIN ${add(DAY('NEW.created_at'), 'lines_in', "''")} END`,
    )
    .execute(db);

  // first arrival at 待付款: freeze, then count it and its margin
  await sql
    .raw(
      `CREATE TRIGGER trg_money_waiting_payment AFTER UPDATE OF status ON tasks
       WHEN ${ENTERED('WAITING_PAYMENT')} AND NEW.waiting_payment_at IS NULL BEGIN
         UPDATE tasks SET
           money_rate_ppm = ${SETTING('money.twd_to_cny_rate_ppm')},
           money_fee_bp = COALESCE(${SETTING('money.platform_fee_bp')}, 0),
           money_line_fee_cny_cent = COALESCE(${SETTING('money.line_fee_cny_cent')}, 0),
           confirmed_total_cent = (SELECT s.gate3_submit_amount_cent FROM order_submissions s
             WHERE s.task_id = NEW.task_id AND s.abandoned_at IS NULL ORDER BY s.created_at DESC LIMIT 1),
           waiting_payment_at = NEW.updated_at
         WHERE task_id = NEW.task_id;
         ${add(DAY('NEW.updated_at'), 'waiting_payment', "''", `COALESCE((SELECT confirmed_total_cent FROM tasks WHERE task_id = NEW.task_id), 0)`)}
         INSERT INTO money_days (day, metric, key, n, amount)
           SELECT ${DAY('NEW.updated_at')}, 'margin', '', 1, m FROM (SELECT ${MARGIN('t')} AS m FROM tasks t WHERE t.task_id = NEW.task_id) WHERE m IS NOT NULL
           ON CONFLICT (day, metric, key) DO UPDATE SET n = n + 1, amount = amount + excluded.amount;
       END`,
    )
    .execute(db);

  await sql
    .raw(
      `CREATE TRIGGER trg_money_paid AFTER UPDATE OF status ON tasks
       WHEN ${ENTERED('SUCCEEDED')} AND OLD.status = 'WAITING_PAYMENT' BEGIN
         UPDATE tasks SET paid_at = NEW.updated_at WHERE task_id = NEW.task_id;
         ${add(DAY('NEW.updated_at'), 'paid', "''", 'COALESCE(NEW.confirmed_total_cent, 0)')}
       END`,
    )
    .execute(db);

  // a stop a person settles as failed was already counted when it stopped
  await sql
    .raw(
      `CREATE TRIGGER trg_money_stops AFTER UPDATE OF status ON tasks
       WHEN NEW.task_type = 'purchase' AND NEW.status IN (${STOPS}) AND OLD.status NOT IN (${STOPS}) BEGIN
         ${add(DAY('NEW.updated_at'), 'stops', 'COALESCE(NEW.reason_code, NEW.status)')}
       END`,
    )
    .execute(db);

  await sql
    .raw(
      `CREATE TRIGGER trg_money_dry_runs AFTER UPDATE OF status ON tasks
       WHEN NEW.execution_mode = 'dry_run' AND NEW.status IN ('DRY_RUN_PASSED', ${STOPS})
         AND OLD.status NOT IN ('DRY_RUN_PASSED', ${STOPS}) BEGIN
         ${add(DAY('NEW.updated_at'), 'dry_runs', "''")}
       END`,
    )
    .execute(db);

  // a tap on 提交订单 recorded: a live purchase made, on the phone that made it
  const tapped = (when: string) => `
       INSERT INTO money_days (day, metric, key, n, amount)
         SELECT ${DAY('NEW.order_submitted_at')}, metric, key, 1, 0 FROM (
           SELECT 'live_purchases' AS metric, '' AS key
           UNION ALL SELECT 'phone_purchases', a.device_id FROM purchase_attempts a WHERE a.id = NEW.attempt_id)
         WHERE ${when}
         ON CONFLICT (day, metric, key) DO UPDATE SET n = n + 1;`;
  await sql
    .raw(
      `CREATE TRIGGER trg_money_tap AFTER UPDATE OF order_submitted_at ON order_submissions
       WHEN OLD.order_submitted_at IS NULL AND NEW.order_submitted_at IS NOT NULL BEGIN ${tapped('true')} END`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER trg_money_tap_insert AFTER INSERT ON order_submissions
       WHEN NEW.order_submitted_at IS NOT NULL BEGIN ${tapped('true')} END`,
    )
    .execute(db);

  // a phone's time on purchases, counted when an attempt ends
  await sql
    .raw(
      `CREATE TRIGGER trg_money_busy AFTER UPDATE OF finished_at ON purchase_attempts
       WHEN OLD.finished_at IS NULL AND NEW.finished_at IS NOT NULL BEGIN
         ${add(DAY('NEW.finished_at'), 'phone_busy', 'NEW.device_id', "MAX(0, CAST(strftime('%s', NEW.finished_at) AS INTEGER) - CAST(strftime('%s', NEW.started_at) AS INTEGER))")}
       END`,
    )
    .execute(db);

  await backfill(db);
}

/**
 * What existed before: frozen at today's settings, and counted on the day of its last change —
 * the days on which older tasks changed state were never recorded.
 */
async function backfill(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `UPDATE tasks SET
         money_fee_bp = 0, money_line_fee_cny_cent = 0, waiting_payment_at = updated_at,
         confirmed_total_cent = (SELECT s.gate3_submit_amount_cent FROM order_submissions s
           WHERE s.task_id = tasks.task_id AND s.abandoned_at IS NULL ORDER BY s.created_at DESC LIMIT 1),
         paid_at = CASE WHEN status = 'SUCCEEDED' THEN updated_at END
       WHERE task_type = 'purchase' AND status IN ('WAITING_PAYMENT', 'SUCCEEDED') AND execution_mode = 'live'`,
    )
    .execute(db);
  const upsert = `ON CONFLICT (day, metric, key) DO UPDATE SET n = n + excluded.n, amount = amount + excluded.amount`;
  const groups: Array<[string, string, string, string]> = [
    ['lines_in', "''", '0', `syb_orders`],
    ['waiting_payment', "''", 'COALESCE(confirmed_total_cent, 0)', `tasks WHERE waiting_payment_at IS NOT NULL`],
    ['paid', "''", 'COALESCE(confirmed_total_cent, 0)', `tasks WHERE paid_at IS NOT NULL`],
    ['stops', 'COALESCE(reason_code, status)', '0', `tasks WHERE task_type = 'purchase' AND status IN (${STOPS})`],
    ['dry_runs', "''", '0', `tasks WHERE execution_mode = 'dry_run' AND status IN ('DRY_RUN_PASSED', ${STOPS})`],
  ];
  for (const [metric, key, amount, from] of groups) {
    const at = metric === 'lines_in' ? 'created_at' : metric === 'paid' ? 'paid_at' : 'updated_at';
    await sql
      .raw(
        `INSERT INTO money_days (day, metric, key, n, amount)
         SELECT ${DAY(at)}, '${metric}', ${key}, COUNT(*), SUM(${amount}) FROM ${from} GROUP BY 1, 3 ${upsert}`,
      )
      .execute(db);
  }
  await sql
    .raw(
      `INSERT INTO money_days (day, metric, key, n, amount)
       SELECT ${DAY('s.order_submitted_at')}, m.metric, CASE m.metric WHEN 'live_purchases' THEN '' ELSE a.device_id END, COUNT(*), 0
       FROM order_submissions s JOIN purchase_attempts a ON a.id = s.attempt_id
         CROSS JOIN (SELECT 'live_purchases' AS metric UNION ALL SELECT 'phone_purchases') m
       WHERE s.order_submitted_at IS NOT NULL GROUP BY 1, 2, 3 ${upsert}`,
    )
    .execute(db);
  await sql
    .raw(
      `INSERT INTO money_days (day, metric, key, n, amount)
       SELECT ${DAY('finished_at')}, 'phone_busy', device_id, COUNT(*),
         SUM(MAX(0, CAST(strftime('%s', finished_at) AS INTEGER) - CAST(strftime('%s', started_at) AS INTEGER)))
       FROM purchase_attempts WHERE finished_at IS NOT NULL GROUP BY 1, 3 ${upsert}`,
    )
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of [
    'trg_money_lines_in',
    'trg_money_waiting_payment',
    'trg_money_paid',
    'trg_money_stops',
    'trg_money_dry_runs',
    'trg_money_tap',
    'trg_money_tap_insert',
    'trg_money_busy',
  ])
    await sql.raw(`DROP TRIGGER ${t}`).execute(db);
  await sql`DROP INDEX idx_tasks_waiting_payment`.execute(db);
  await sql`DROP INDEX idx_order_submissions_task`.execute(db);
  await sql`DROP INDEX idx_tasks_syb_line`.execute(db);
  await sql`DROP TABLE money_days`.execute(db);
  for (const col of [
    'money_rate_ppm',
    'money_fee_bp',
    'money_line_fee_cny_cent',
    'confirmed_total_cent',
    'waiting_payment_at',
    'paid_at',
  ])
    await sql.raw(`ALTER TABLE tasks DROP COLUMN ${col}`).execute(db);
}
