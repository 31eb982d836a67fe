import Database from 'better-sqlite3';

/**
 * A big history for the task list bench (bench/tasks-list.ts): `tasks` purchase tasks, each with
 * three runs (three task versions, each an authorization and its attempt), written straight into
 * a migrated admin SQLite file in multi-row INSERTs of PER_STATEMENT rows, all in one transaction.
 */
export const RUNS_PER_TASK = 3;
const PER_STATEMENT = 50;
const STATUSES = [
  'DRY_RUN_PASSED',
  'SUCCEEDED',
  'SUCCEEDED',
  'SUCCEEDED',
  'FAILED',
  'CANCELED',
  'SUCCEEDED',
  'DRY_RUN_PASSED',
] as const;
const BASE_MS = Date.UTC(2024, 0, 1);
const utc = (ms: number) => new Date(ms).toISOString().slice(0, 19) + 'Z';
const OPTIONS = JSON.stringify({ 颜色分类: '黑色', 尺码: 'M' });

// The columns each table is seeded with, in the order the row builders below give the values.
const TABLES = {
  tasks: [
    ...['task_id', 'task_type', 'status', 'version', 'pdd_goods_url', 'pdd_goods_id', 'title', 'shop_name', 'source'],
    ...['pdd_options', 'quantity', 'max_total_price_cent', 'execution_mode', 'authorization_id', 'reason_code'],
    ...['pdd_order_no', 'started_at', 'finished_at', 'created_by', 'created_at', 'updated_at'],
  ],
  order_authorizations: [
    ...['id', 'task_id', 'task_version', 'start_key', 'goods_id', 'pdd_options', 'quantity', 'max_total_price_cent'],
    ...['execution_mode', 'status', 'workflow_id', 'workflow_started_at', 'created_by', 'created_at', 'expires_at'],
    'closed_at',
  ],
  purchase_attempts: [
    ...['id', 'task_id', 'authorization_id', 'device_id', 'workflow_id', 'status', 'step', 'gate1_unit_price_cent'],
    ...['gate2_panel_total_cent', 'quantity_read', 'gate3_submit_amount_cent', 'timeline_json', 'started_at'],
    'finished_at',
  ],
} as const;
type Table = keyof typeof TABLES;

/** Task `i`: its goods (5,000 of them) and times, two tasks a minute so updated_at ties, which the keyset's task_id breaks. */
function taskOf(i: number) {
  const taskId = `t-${String(i).padStart(8, '0')}`;
  const goods = String(600000000000 + (i % 5000));
  const createdMs = BASE_MS + Math.floor(i / 2) * 60_000;
  const status = i % 97 === 0 ? 'NEEDS_MANUAL' : STATUSES[i % STATUSES.length]!;
  return { taskId, goods, createdMs, status };
}

function taskRow(i: number): unknown[] {
  const { taskId, goods, createdMs, status } = taskOf(i);
  const finished = status === 'NEEDS_MANUAL' ? null : utc(createdMs + 50_000);
  return [
    ...[taskId, 'purchase', status, RUNS_PER_TASK, `https://mobile.yangkeduo.com/goods.html?goods_id=${goods}`, goods],
    ...[`商品 ${i % 5000} 黑色 M`, `店铺 ${i % 300}`, 'syb', OPTIONS, 1 + (i % 3), 100_000, 'live'],
    `a-${i}-${RUNS_PER_TASK}`,
    status === 'NEEDS_MANUAL' ? 'GATE1_PRICE_ABOVE_CAP' : null,
    status === 'SUCCEEDED' ? `2401${String(i).padStart(10, '0')}` : null,
    ...[utc(createdMs + 1000), finished, 'admin', utc(createdMs), utc(createdMs + 55_000)],
  ];
}

/** Run `v` of task `i`: its authorization (the last one consumed) and its attempt (the last one passed). */
function runRows(i: number, v: number): { authorization: unknown[]; attempt: unknown[] } {
  const { taskId, goods, createdMs } = taskOf(i);
  const authId = `a-${i}-${v}`;
  const at = createdMs + v * 10_000;
  const workflowId = `purchase/${taskId}/${authId}`;
  const last = v === RUNS_PER_TASK;
  return {
    authorization: [
      ...[authId, taskId, v, `k-${i}-${v}`, goods, OPTIONS, 1, 100_000, 'live', last ? 'CONSUMED' : 'EXPIRED'],
      ...[workflowId, utc(at), 'admin', utc(at), utc(at + 86_400_000), utc(at + 5000)],
    ],
    attempt: [
      ...[`r-${i}-${v}`, taskId, authId, 'phone-1', workflowId, last ? 'PASSED' : 'STOPPED', 'final_panel'],
      ...[1288, 1288, 1, 1288, '[]', utc(at + 1000), utc(at + 5000)],
    ],
  };
}

export function seedTasks(file: string, tasks: number): void {
  const db = new Database(file);
  db.pragma('synchronous = OFF');
  const statements = new Map<string, Database.Statement>();
  const pending: Record<Table, unknown[][]> = { tasks: [], order_authorizations: [], purchase_attempts: [] };
  const statementFor = (table: Table, rows: number) => {
    const key = `${table}/${rows}`;
    const columns = TABLES[table];
    if (!statements.has(key))
      statements.set(
        key,
        db.prepare(
          `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${Array(rows)
            .fill(`(${columns.map(() => '?').join(', ')})`)
            .join(', ')}`,
        ),
      );
    return statements.get(key)!;
  };
  // parents first: the foreign keys stay on while seeding
  const flush = () => {
    for (const table of Object.keys(pending) as Table[]) {
      if (pending[table].length) statementFor(table, pending[table].length).run(pending[table].flat());
      pending[table] = [];
    }
  };
  db.transaction(() => {
    for (let i = 0; i < tasks; i++) {
      pending.tasks.push(taskRow(i));
      for (let v = 1; v <= RUNS_PER_TASK; v++) {
        const run = runRows(i, v);
        pending.order_authorizations.push(run.authorization);
        pending.purchase_attempts.push(run.attempt);
      }
      if (pending.purchase_attempts.length >= PER_STATEMENT) flush();
    }
    flush();
  })();
  db.exec('ANALYZE');
  db.close();
}
