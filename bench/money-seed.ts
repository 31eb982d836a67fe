import crypto from 'node:crypto';
import Database from 'better-sqlite3';

/**
 * A year of purchases for the money overview bench (bench/money-overview.ts), written into a
 * migrated admin SQLite file so that the daily figures come from the migration's triggers, never
 * written here: the rows are inserted as a purchase holds a phone (the 顺运宝 line, the task at
 * ORDERING, its authorization, attempt and fenced submission), then moved on by one-row UPDATEs as
 * the admin's writes move them — the tap on 提交订单, the attempt's end, 待付款, 已付款, a stop, a
 * dry run's end. Each kind of move is timed over all its rows: the write a transition costs with
 * the triggers in it.
 */
const PER_STATEMENT = 50;
const DAY_MS = 86_400_000;
/** Taipei midnight of the first day (UTC+8 all year) */
export const FIRST_DAY = '2025-12-01';
const BASE_MS = Date.parse(`${FIRST_DAY}T00:00:00Z`) - 8 * 3_600_000;
export const PHONES = 10;
const STOP_REASONS = ['GATE1_OVER_CAP', 'PRICE_CHANGED', 'OPTION_UNAVAILABLE', 'GOODS_DELISTED', 'DEVICE_ERROR'];
/** the settings the purchases freeze at 待付款: 0.225 CNY per TWD, Shopee 6 %, 3 CNY a line */
export const MONEY_SETTINGS = {
  'money.twd_to_cny_rate_ppm': 225_000,
  'money.platform_fee_bp': 600,
  'money.line_fee_cny_cent': 300,
};

const utc = (ms: number) => new Date(ms).toISOString().slice(0, 19) + 'Z';
export const deviceIdOf = (k: number) => `0000000${k}-0000-4000-8000-000000000000`;

export type Kind = 'paid' | 'waiting' | 'stop' | 'dry_run' | 'dry_run_stop';
export const TRANSITIONS = ['tap', 'attempt_end', 'waiting_payment', 'paid', 'stop', 'dry_run_end'] as const;
export type Transition = (typeof TRANSITIONS)[number];

/** Purchase `i` of `tasks` spread evenly over `days`: what becomes of it, and when. */
export function purchaseOf(i: number, tasks: number, days: number, prefix = '') {
  const t0 = BASE_MS + Math.floor((i * days * DAY_MS) / tasks);
  const inLastWeek = t0 >= BASE_MS + (days - 7) * DAY_MS;
  const kind: Kind =
    i % 25 === 0
      ? Math.floor(i / 25) % 10 === 9
        ? 'dry_run_stop'
        : 'dry_run'
      : i % 25 === 1
        ? 'stop'
        : inLastWeek && i % 5 === 0
          ? 'waiting'
          : 'paid';
  const live = kind === 'paid' || kind === 'waiting' || kind === 'stop';
  const fenced = kind === 'paid' || kind === 'waiting';
  const quantity = 1 + (i % 3);
  // one line in 200 without a price: its purchase has no margin
  const priceTwdCent = i % 200 === 7 ? null : 30_000 + ((i * 7919) % 200_000);
  return {
    i,
    id: `${prefix}${i}`,
    kind,
    live,
    fenced,
    quantity,
    priceTwdCent,
    amountCent: Math.floor(((priceTwdCent ?? 50_000) * quantity * 14) / 100) + (i % 100),
    deviceId: deviceIdOf(i % PHONES),
    at: {
      line: utc(t0 - 3_600_000),
      draft: utc(t0),
      started: utc(t0 + 60_000),
      fence: utc(t0 + 100_000),
      tap: utc(t0 + 110_000),
      finished: utc(t0 + 100_000 + (i % 120) * 1000),
      waiting: utc(t0 + 120_000),
      // a third paid the next morning, on another Taipei day than its 待付款
      paid: utc(t0 + (i % 3 === 0 ? 20 : 2) * 3_600_000),
      stopped: utc(t0 + 90_000),
    },
    stopReason:
      kind === 'dry_run_stop'
        ? 'PRICE_CHANGED'
        : Math.floor(i / 25) % 6 === 5
          ? null
          : STOP_REASONS[Math.floor(i / 25) % 6]!,
  };
}
export type Purchase = ReturnType<typeof purchaseOf>;

const TABLES = {
  syb_orders: [
    ...['syb_id', 'syb_order_no', 'title', 'product_spec', 'shopee_goods_id', 'shopee_sku_id', 'quantity'],
    ...['price_twd_cent', 'syb_data', 'created_at', 'first_synced_at', 'updated_at'],
  ],
  tasks: [
    ...['task_id', 'task_type', 'status', 'version', 'pdd_goods_url', 'pdd_goods_id', 'device_id', 'title', 'source'],
    ...['pdd_options', 'quantity', 'max_total_price_cent', 'execution_mode', 'authorization_id', 'syb_id'],
    ...['syb_order_no', 'started_at', 'created_by', 'created_at', 'updated_at'],
  ],
  order_authorizations: [
    ...['id', 'task_id', 'task_version', 'start_key', 'goods_id', 'pdd_options', 'quantity', 'max_total_price_cent'],
    ...['execution_mode', 'status', 'workflow_id', 'workflow_started_at', 'created_by', 'created_at', 'expires_at'],
  ],
  purchase_attempts: [
    ...['id', 'task_id', 'authorization_id', 'device_id', 'workflow_id', 'status', 'gate3_submit_amount_cent'],
    ...['timeline_json', 'started_at'],
  ],
  order_submissions: [
    ...['id', 'task_id', 'authorization_id', 'attempt_id', 'status', 'gate1_unit_price_cent', 'gate2_panel_total_cent'],
    ...['quantity_read', 'gate3_submit_amount_cent', 'created_at'],
  ],
} as const;
type Table = keyof typeof TABLES;

function rowsOf(p: Purchase): Partial<Record<Table, unknown[]>> {
  const goods = String(600000000000 + (p.i % 5000));
  const auth = `a${p.id}`;
  const workflow = `purchase/t${p.id}/${auth}`;
  const mode = p.live ? 'live' : 'dry_run';
  const cap = p.amountCent + 10_000;
  return {
    syb_orders: [
      ...[`s${p.id}`, `TW${p.id}`, `商品 ${p.i % 5000}`, '黑色,M', '33300000001', '8001', p.quantity, p.priceTwdCent],
      ...['{}', p.at.line, p.at.line, p.at.line],
    ],
    tasks: [
      ...[`t${p.id}`, 'purchase', 'ORDERING', 1, `https://mobile.yangkeduo.com/goods.html?goods_id=${goods}`, goods],
      ...[p.deviceId, `商品 ${p.i % 5000}`, 'syb', '{}', p.quantity, cap, mode, auth, `s${p.id}`, `TW${p.id}`],
      ...[p.at.started, 'admin', p.at.draft, p.at.started],
    ],
    order_authorizations: [
      ...[auth, `t${p.id}`, 1, `k${p.id}`, goods, '{}', p.quantity, cap, mode, 'CONSUMED', workflow, p.at.draft],
      ...['admin', p.at.draft, utc(Date.parse(p.at.draft) + DAY_MS)],
    ],
    purchase_attempts: [
      `r${p.id}`,
      `t${p.id}`,
      auth,
      p.deviceId,
      workflow,
      'RUNNING',
      p.fenced ? p.amountCent : null,
      '[]',
      p.at.started,
    ],
    ...(p.fenced && {
      order_submissions: [
        ...[`f${p.id}`, `t${p.id}`, auth, `r${p.id}`, 'FENCED', p.amountCent, p.amountCent, p.quantity, p.amountCent],
        p.at.fence,
      ],
    }),
  };
}

/** The one-row UPDATEs that move purchases on, as the admin's writes do. */
function moves(db: Database.Database) {
  const task = db.prepare('UPDATE tasks SET status = ?, reason_code = ?, updated_at = ? WHERE task_id = ?');
  const tap = db.prepare("UPDATE order_submissions SET status = 'SUBMITTED', order_submitted_at = ? WHERE id = ?");
  const end = db.prepare('UPDATE purchase_attempts SET status = ?, finished_at = ? WHERE id = ?');
  return {
    tap: (p: Purchase) => p.fenced && tap.run(p.at.tap, `f${p.id}`).changes,
    attempt_end: (p: Purchase) =>
      end.run(p.fenced ? 'SUBMITTED' : p.kind === 'dry_run' ? 'PASSED' : 'STOPPED', p.at.finished, `r${p.id}`).changes,
    waiting_payment: (p: Purchase) => p.fenced && task.run('WAITING_PAYMENT', null, p.at.waiting, `t${p.id}`).changes,
    paid: (p: Purchase) => p.kind === 'paid' && task.run('SUCCEEDED', null, p.at.paid, `t${p.id}`).changes,
    stop: (p: Purchase) =>
      (p.kind === 'stop' || p.kind === 'dry_run_stop') &&
      task.run(p.stopReason === null ? 'FAILED' : 'NEEDS_MANUAL', p.stopReason, p.at.stopped, `t${p.id}`).changes,
    dry_run_end: (p: Purchase) =>
      p.kind === 'dry_run' && task.run('DRY_RUN_PASSED', null, p.at.stopped, `t${p.id}`).changes,
  } satisfies Record<Transition, (p: Purchase) => number | false>;
}

/** Insert the rows of `purchases` in multi-row statements of PER_STATEMENT purchases, parents first. */
function insertAll(db: Database.Database, purchases: Iterable<Purchase>): void {
  const statements = new Map<string, Database.Statement>();
  const pending = Object.fromEntries(Object.keys(TABLES).map((t) => [t, [] as unknown[][]])) as Record<
    Table,
    unknown[][]
  >;
  const flush = () => {
    for (const table of Object.keys(TABLES) as Table[]) {
      const rows = pending[table];
      if (rows.length === 0) continue;
      const key = `${table}/${rows.length}`;
      if (!statements.has(key)) {
        const row = `(${TABLES[table].map(() => '?').join(', ')})`;
        statements.set(
          key,
          db.prepare(
            `INSERT INTO ${table} (${TABLES[table].join(', ')}) VALUES ${Array(rows.length).fill(row).join(', ')}`,
          ),
        );
      }
      statements.get(key)!.run(rows.flat());
      pending[table] = [];
    }
  };
  let n = 0;
  for (const p of purchases) {
    for (const [table, row] of Object.entries(rowsOf(p))) pending[table as Table].push(row);
    if (++n % PER_STATEMENT === 0) flush();
  }
  flush();
}

export interface PhaseFigures {
  /** rows the phase wrote or moved */
  rows: number;
  ms: number;
}

/** Insert `purchases`, then each transition over all of them in turn; the time of each. */
export function writePurchases(
  db: Database.Database,
  purchases: () => Iterable<Purchase>,
): Record<'insert' | Transition, PhaseFigures> {
  const out = {} as Record<'insert' | Transition, PhaseFigures>;
  let started = performance.now();
  insertAll(db, purchases());
  out.insert = { rows: [...purchases()].length, ms: performance.now() - started };
  const move = moves(db);
  for (const t of TRANSITIONS) {
    started = performance.now();
    let rows = 0;
    for (const p of purchases()) if (move[t](p)) rows++;
    out[t] = { rows, ms: performance.now() - started };
  }
  return out;
}

function* range(tasks: number, days: number, from: number, to: number, prefix = ''): Generator<Purchase> {
  for (let i = from; i < to; i++) yield purchaseOf(i, tasks, days, prefix);
}

export interface MoneySeedFigures {
  tasks: number;
  days: number;
  phases: Record<'insert' | Transition, PhaseFigures>;
  /** `sample` more purchases written on the full file twice, with the money triggers and without, rolled back */
  overhead: {
    sample: number;
    with: Record<'insert' | Transition, PhaseFigures>;
    without: Record<'insert' | Transition, PhaseFigures>;
  };
  /** without an index on order_submissions(task_id), one 待付款 transition on the full file (rolled back) */
  submissionScan: { indexMissing: boolean; submissions: number; msPerTransition: number | null };
  moneyDaysRows: number;
  analyzeMs: number;
}

/** Seed `tasks` purchases over `days` days into the migrated admin file `file`. */
export function seedMoney(file: string, opts: { tasks: number; days: number; sample: number }): MoneySeedFigures {
  const db = new Database(file);
  db.pragma('synchronous = OFF');
  db.pragma('foreign_keys = ON');
  try {
    const setting = db.prepare('INSERT INTO app_settings (setting_key, value_json, updated_at) VALUES (?, ?, ?)');
    const phone = db.prepare(
      "INSERT INTO device_credentials (device_id, display_name, token_sha256, status, created_at) VALUES (?, ?, ?, 'ACTIVE', ?)",
    );
    db.transaction(() => {
      for (const [key, value] of Object.entries(MONEY_SETTINGS)) setting.run(key, JSON.stringify(value), utc(BASE_MS));
      for (let k = 0; k < PHONES; k++) phone.run(deviceIdOf(k), `手机 ${k + 1}`, crypto.randomBytes(32), utc(BASE_MS));
    })();
    const all = () => range(opts.tasks, opts.days, 0, opts.tasks);
    let submissionScan: MoneySeedFigures['submissionScan'] = {
      indexMissing: false,
      submissions: 0,
      msPerTransition: null,
    };
    // the transitions up to 待付款, then (once the scan is measured) the rest
    const phases = db.transaction(() => {
      const figures = {} as MoneySeedFigures['phases'];
      let started = performance.now();
      insertAll(db, all());
      figures.insert = { rows: opts.tasks, ms: performance.now() - started };
      const move = moves(db);
      for (const t of TRANSITIONS) {
        if (t === 'waiting_payment') submissionScan = scanOnce(db, opts);
        started = performance.now();
        let rows = 0;
        for (const p of all()) if (move[t](p)) rows++;
        figures[t] = { rows, ms: performance.now() - started };
      }
      return figures;
    })();
    const overhead = {
      sample: opts.sample,
      without: sampleWrites(db, opts, false),
      with: sampleWrites(db, opts, true),
    };
    const analyzeStarted = performance.now();
    db.exec('ANALYZE');
    const analyzeMs = performance.now() - analyzeStarted;
    const moneyDaysRows = (db.prepare('SELECT COUNT(*) AS n FROM money_days').get() as { n: number }).n;
    return { tasks: opts.tasks, days: opts.days, phases, overhead, submissionScan, moneyDaysRows, analyzeMs };
  } finally {
    db.close();
  }
}

/** Whether some index of order_submissions starts with task_id (what the 待付款 trigger looks a task's submission up by). */
export function hasSubmissionTaskIndex(db: Database.Database): boolean {
  const indexes = db.prepare("SELECT name FROM pragma_index_list('order_submissions')").all() as Array<{
    name: string;
  }>;
  return indexes.some(
    ({ name }) =>
      (db.prepare('SELECT name FROM pragma_index_info(?) WHERE seqno = 0').get(name) as { name: string } | undefined)
        ?.name === 'task_id',
  );
}

/**
 * The 待付款 trigger finds the task's submission by task_id. Without an index starting with it,
 * every such transition reads all submissions: time a few on the full file (rolled back), then add
 * the index this bench needs to finish seeding in minutes rather than days.
 */
function scanOnce(db: Database.Database, opts: { tasks: number; days: number }): MoneySeedFigures['submissionScan'] {
  const submissions = (db.prepare('SELECT COUNT(*) AS n FROM order_submissions').get() as { n: number }).n;
  if (hasSubmissionTaskIndex(db)) return { indexMissing: false, submissions, msPerTransition: null };
  const move = moves(db);
  const sample = [...range(opts.tasks, opts.days, 0, opts.tasks)].filter((p) => p.fenced).slice(0, 20);
  db.exec('SAVEPOINT scan');
  const started = performance.now();
  for (const p of sample) move.waiting_payment(p);
  const ms = (performance.now() - started) / sample.length;
  db.exec('ROLLBACK TO scan; RELEASE scan');
  db.exec('CREATE INDEX bench_order_submissions_task ON order_submissions(task_id, created_at)');
  return { indexMissing: true, submissions, msPerTransition: ms };
}

/** `sample` more purchases over the same year on the full file, with or without the money triggers, rolled back. */
function sampleWrites(db: Database.Database, opts: { tasks: number; days: number; sample: number }, triggers: boolean) {
  // spread over the year, and one step more than a whole number of the kinds' 25-purchase cycle
  const step = Math.max(1, Math.floor(opts.tasks / opts.sample)) + 1;
  const purchases = function* () {
    for (let n = 0; n < opts.sample; n++) yield purchaseOf((n * step) % opts.tasks, opts.tasks, opts.days, 'x');
  };
  db.exec('BEGIN');
  try {
    const money = db.prepare(
      "SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'trg\\_money\\_%' ESCAPE '\\'",
    );
    if (!triggers) for (const { name } of money.all() as Array<{ name: string }>) db.exec(`DROP TRIGGER ${name}`);
    return writePurchases(db, purchases);
  } finally {
    db.exec('ROLLBACK');
  }
}
