import Database from 'better-sqlite3';

/**
 * A year of 顺运宝 order lines and the purchases made for them, for the money export bench
 * (bench/money-export.ts), written straight into a migrated admin SQLite file in multi-row INSERTs,
 * all in one transaction. Of ten lines six were bought and paid, one waits for payment, one is a
 * draft (its cap is the estimate), one failed (no cost) and one has no task; one line in twenty was
 * tried once before (a failed task beside the one that holds it), so the line's task is chosen.
 * A purchase's rate, fees and confirmed total are the frozen columns migration 0160 adds.
 */
export const MONEY_EXPORT_YEAR = { from: '2026-01-01', to: '2026-12-31' };
const PER_STATEMENT = 200;
const YEAR_START_MS = Date.parse('2026-01-01T00:00:00Z') - 8 * 3_600_000;
const YEAR_MS = 365 * 86_400_000;
const utc = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}Z`;

const LINE_COLUMNS = [
  ...['syb_id', 'syb_order_no', 'title', 'product_spec', 'shopee_goods_id', 'shopee_sku_id', 'quantity'],
  ...['price_twd_cent', 'image_url', 'syb_data', 'created_at', 'first_synced_at', 'updated_at'],
];
const TASK_COLUMNS = [
  ...['task_id', 'task_type', 'status', 'version', 'pdd_goods_url', 'pdd_goods_id', 'pdd_options', 'quantity'],
  ...['max_total_price_cent', 'execution_mode', 'syb_id', 'syb_order_no', 'device_id', 'pdd_order_no'],
  ...['money_rate_ppm', 'money_fee_bp', 'money_line_fee_cny_cent', 'confirmed_total_cent', 'waiting_payment_at'],
  ...['paid_at', 'created_at', 'updated_at'],
];

function lineRow(i: number, createdMs: number): unknown[] {
  const goods = 33_300_000_000 + (i % 4_000);
  const created = utc(createdMs);
  return [
    ...[
      `syb-${i}`,
      `TW${String(260_000_000_000 + i)}`,
      `西装外套 男士修身 ${i % 4_000} 号款`,
      `黑色${i % 7},${'SMLX'[i % 4]}`,
    ],
    ...[String(goods), String(80_000_000 + i), 1 + (i % 3), 20_000 + ((i * 7919) % 180_000), null, '{}'],
    ...[created, created, created],
  ];
}

function taskRow(i: number, createdMs: number, kind: 'paid' | 'waiting' | 'draft' | 'failed', tag = ''): unknown[] {
  const goods = String(600_000_000_000 + (i % 4_000));
  const at = (minutes: number) => utc(createdMs + minutes * 60_000);
  const bought = kind === 'paid' || kind === 'waiting';
  const status = { paid: 'SUCCEEDED', waiting: 'WAITING_PAYMENT', draft: 'DRAFT', failed: 'FAILED' }[kind];
  const cap = 5_000 + ((i * 104_729) % 40_000);
  return [
    ...[`task-${i}${tag}`, 'purchase', status, 1, `https://mobile.yangkeduo.com/goods.html?goods_id=${goods}`, goods],
    ...['{}', 1 + (i % 3), cap, 'live', `syb-${i}`, `TW${String(260_000_000_000 + i)}`, `phone-${i % 10}`],
    bought ? `2601${String(i).padStart(12, '0')}` : null,
    ...(bought ? [225_000 + (i % 5) * 1_000, 600, 150, cap - (i % 900), at(30)] : [null, null, null, null, null]),
    kind === 'paid' ? at(240) : null,
    at(tag ? -60 : 0),
    at(kind === 'paid' ? 240 : 30),
  ];
}

const KINDS = ['paid', 'paid', 'paid', 'paid', 'paid', 'paid', 'waiting', 'draft', 'failed', null] as const;

export function seedMoneyLines(file: string, lines: number): void {
  const db = new Database(file);
  db.pragma('synchronous = OFF');
  const statements = new Map<string, Database.Statement>();
  const insert = (table: string, columns: string[], rows: unknown[][]) => {
    if (rows.length === 0) return;
    const key = `${table}/${rows.length}`;
    if (!statements.has(key))
      statements.set(
        key,
        db.prepare(
          `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${Array(rows.length)
            .fill(`(${columns.map(() => '?').join(', ')})`)
            .join(', ')}`,
        ),
      );
    statements.get(key)!.run(rows.flat());
  };
  let pendingLines: unknown[][] = [];
  let pendingTasks: unknown[][] = [];
  // parents first: the foreign keys stay on while seeding
  const flush = () => {
    insert('syb_orders', LINE_COLUMNS, pendingLines);
    insert('tasks', TASK_COLUMNS, pendingTasks);
    pendingLines = [];
    pendingTasks = [];
  };
  db.transaction(() => {
    for (let i = 0; i < lines; i++) {
      const createdMs = YEAR_START_MS + Math.floor((i * YEAR_MS) / lines);
      pendingLines.push(lineRow(i, createdMs));
      const kind = KINDS[i % KINDS.length]!;
      if (kind) pendingTasks.push(taskRow(i, createdMs, kind));
      if (kind && kind !== 'failed' && i % 20 === 0) pendingTasks.push(taskRow(i, createdMs, 'failed', '-before'));
      if (pendingLines.length >= PER_STATEMENT) flush();
    }
    flush();
  })();
  db.exec('ANALYZE');
  db.close();
}
