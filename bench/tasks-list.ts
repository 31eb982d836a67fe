import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, type CompiledQuery } from 'kysely';
import { encodeCursor } from '../admin/catalog/common';
import { dataPaths } from '../platform/data-dir';
import type { AdminDatabase } from '../admin/db/schema';
import { openMigratedAdminDb } from '../admin/db/database';
import { listTasks, type ListQuery } from '../admin/purchase/queries';
import { stopChild } from '../scripts/supervise/children';
import { TimedClient } from './http';
import { operator, startAdminProcess } from './stack';
import { percentile, round, spread, type Spread } from './stats';
import type { BenchTemporal } from './temporal';

/**
 * `GET /api/tasks` over a big history: `tasks` purchase tasks, each with three runs (three task
 * versions, each an authorization and its attempt), written straight into the admin's SQLite
 * file after the real migrations. Then the API through HTTP against an admin process, beside
 * the same SQL (captured from `listTasks`) run bare, and the query plan of each.
 */
const PAGE = 50;
const SAMPLES = 200;
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
const RUNS_PER_TASK = 3;
const BASE_MS = Date.UTC(2024, 0, 1);
const utc = (ms: number) => new Date(ms).toISOString().slice(0, 19) + 'Z';

/** Multi-row INSERTs of `perStatement` rows, all in one transaction. */
export function seedTasks(file: string, tasks: number): void {
  const db = new Database(file);
  db.pragma('synchronous = OFF');
  const perStatement = 50;
  const insert = (table: string, columns: string[], rows: number) =>
    db.prepare(
      `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${Array(rows)
        .fill(`(${columns.map(() => '?').join(', ')})`)
        .join(', ')}`,
    );
  const taskCols = [
    'task_id',
    'task_type',
    'status',
    'version',
    'pdd_goods_url',
    'pdd_goods_id',
    'title',
    'shop_name',
    'source',
    'pdd_options',
    'quantity',
    'max_total_price_cent',
    'execution_mode',
    'authorization_id',
    'reason_code',
    'pdd_order_no',
    'started_at',
    'finished_at',
    'created_by',
    'created_at',
    'updated_at',
  ];
  const authCols = [
    'id',
    'task_id',
    'task_version',
    'start_key',
    'goods_id',
    'pdd_options',
    'quantity',
    'total_price_cap_cent',
    'execution_mode',
    'status',
    'workflow_id',
    'workflow_started_at',
    'created_by',
    'created_at',
    'expires_at',
    'closed_at',
  ];
  const attemptCols = [
    'id',
    'task_id',
    'authorization_id',
    'device_id',
    'workflow_id',
    'status',
    'step',
    'gate1_unit_price_cent',
    'gate2_panel_total_cent',
    'quantity_read',
    'gate3_submit_amount_cent',
    'timeline_json',
    'started_at',
    'finished_at',
  ];
  const stmts = new Map<string, Database.Statement>();
  const flush = (table: string, columns: string[], values: unknown[]) => {
    const rows = values.length / columns.length;
    const key = `${table}/${rows}`;
    if (!stmts.has(key)) stmts.set(key, insert(table, columns, rows));
    stmts.get(key)!.run(values);
    values.length = 0;
  };
  const options = JSON.stringify({ 颜色分类: '黑色', 尺码: 'M' });
  db.transaction(() => {
    const t: unknown[] = [];
    const a: unknown[] = [];
    const r: unknown[] = [];
    for (let i = 0; i < tasks; i++) {
      const taskId = `t-${String(i).padStart(8, '0')}`;
      const goods = String(600000000000 + (i % 5000));
      // two tasks per minute: ties on updated_at, which the keyset's task_id breaks
      const createdMs = BASE_MS + Math.floor(i / 2) * 60_000;
      const status = i % 97 === 0 ? 'NEEDS_MANUAL' : STATUSES[i % STATUSES.length]!;
      const finished = status === 'NEEDS_MANUAL' ? null : utc(createdMs + 50_000);
      const lastAuth = `a-${i}-${RUNS_PER_TASK}`;
      t.push(
        taskId,
        'purchase',
        status,
        RUNS_PER_TASK,
        `https://mobile.yangkeduo.com/goods.html?goods_id=${goods}`,
        goods,
        `商品 ${i % 5000} 黑色 M`,
        `店铺 ${i % 300}`,
        'syb',
        options,
        1 + (i % 3),
        100_000,
        'live',
        lastAuth,
        status === 'NEEDS_MANUAL' ? 'GATE1_PRICE_ABOVE_CAP' : null,
        status === 'SUCCEEDED' ? `2401${String(i).padStart(10, '0')}` : null,
        utc(createdMs + 1000),
        finished,
        'admin',
        utc(createdMs),
        utc(createdMs + 55_000),
      );
      if (t.length === taskCols.length * perStatement) flush('tasks', taskCols, t);
      for (let v = 1; v <= RUNS_PER_TASK; v++) {
        const authId = `a-${i}-${v}`;
        const at = createdMs + v * 10_000;
        const workflowId = `purchase/${taskId}/${authId}`;
        a.push(
          authId,
          taskId,
          v,
          `k-${i}-${v}`,
          goods,
          options,
          1,
          100_000,
          'live',
          v === RUNS_PER_TASK ? 'CONSUMED' : 'EXPIRED',
          workflowId,
          utc(at),
          'admin',
          utc(at),
          utc(at + 86_400_000),
          utc(at + 5000),
        );
        r.push(
          `r-${i}-${v}`,
          taskId,
          authId,
          'phone-1',
          workflowId,
          v === RUNS_PER_TASK ? 'PASSED' : 'STOPPED',
          'final_panel',
          1288,
          1288,
          1,
          1288,
          '[]',
          utc(at + 1000),
          utc(at + 5000),
        );
        // parents first: the foreign keys stay on while seeding
        if (a.length === authCols.length * perStatement) {
          if (t.length) flush('tasks', taskCols, t);
          flush('order_authorizations', authCols, a);
        }
        if (r.length === attemptCols.length * perStatement) {
          if (a.length) flush('order_authorizations', authCols, a);
          flush('purchase_attempts', attemptCols, r);
        }
      }
    }
    if (t.length) flush('tasks', taskCols, t);
    if (a.length) flush('order_authorizations', authCols, a);
    if (r.length) flush('purchase_attempts', attemptCols, r);
  })();
  db.exec('ANALYZE');
  db.close();
}

export interface TasksListFigures {
  tasks: number;
  seedMs: number;
  /** API p50/p99 in ms by case, over `rounds` rounds of SAMPLES requests each */
  api: Record<Case, { p50: Spread; p99: Spread }>;
  sql: Record<Case, { p50: Spread; p99: Spread }>;
  plans: Record<Case, string>;
}

type Case = 'first' | 'deep' | 'filter' | 'search';

export async function benchTasksList(opts: {
  temporal: BenchTemporal;
  root: string;
  tasks: number;
  rounds: number;
  say: (l: string) => void;
}): Promise<TasksListFigures> {
  const dataDir = path.join(opts.root, `tasks-${opts.tasks}`);
  fs.mkdirSync(dataDir, { recursive: true });
  const file = dataPaths(dataDir).adminDb;
  await (await openMigratedAdminDb(file)).destroy();
  const seedStarted = performance.now();
  seedTasks(file, opts.tasks);
  const seedMs = performance.now() - seedStarted;
  opts.say(
    `tasks list: seeded ${opts.tasks} tasks, ${opts.tasks * RUNS_PER_TASK} runs in ${(seedMs / 1000).toFixed(1)} s`,
  );

  const bare = new Database(file, { readonly: true });
  const deepRow = bare
    .prepare('SELECT updated_at, task_id FROM tasks ORDER BY updated_at DESC, task_id DESC LIMIT 1 OFFSET ?')
    .get(Math.floor(opts.tasks * 0.9) - 1) as { updated_at: string; task_id: string };
  const searchFor = bare
    .prepare('SELECT pdd_order_no FROM tasks WHERE pdd_order_no IS NOT NULL ORDER BY updated_at LIMIT 1 OFFSET ?')
    .get(Math.floor(opts.tasks * 0.05)) as { pdd_order_no: string };
  const cases: Record<Case, ListQuery> = {
    first: { limit: PAGE },
    // the page that starts 90 % of the way down, reached by its cursor
    deep: { limit: PAGE, cursor: encodeCursor(JSON.stringify([deepRow.updated_at, deepRow.task_id])) },
    filter: { limit: PAGE, status: 'NEEDS_MANUAL' },
    // an operator looking up one order number among years of tasks
    search: { limit: PAGE, q: searchFor.pdd_order_no },
  };

  const captured = await captureSql(file, cases);
  const sql = {} as TasksListFigures['sql'];
  const plans = {} as TasksListFigures['plans'];
  for (const c of Object.keys(cases) as Case[]) {
    const stmts = captured[c].map((q) => ({ stmt: bare.prepare(q.sql), params: q.parameters as unknown[] }));
    const page = captured[c].at(-1)!;
    const p50: number[] = [];
    const p99: number[] = [];
    for (let round = 0; round < opts.rounds; round++) {
      const times: number[] = [];
      for (let i = 0; i < SAMPLES; i++) {
        const started = performance.now();
        for (const { stmt, params } of stmts) stmt.all(params);
        times.push(performance.now() - started);
      }
      p50.push(percentile(times, 50));
      p99.push(percentile(times, 99));
    }
    sql[c] = { p50: spread(p50), p99: spread(p99) };
    plans[c] = (
      bare.prepare(`EXPLAIN QUERY PLAN ${page.sql}`).all(page.parameters as unknown[]) as Array<{ detail: string }>
    )
      .map((p) => p.detail)
      .join('; ');
  }
  bare.close();

  const password = 'bench-admin-password-0123';
  const admin = await startAdminProcess({
    dataDir,
    logs: path.join(dataDir, 'logs'),
    temporal: opts.temporal,
    workflowBundlePath: opts.temporal.workflowBundlePath,
    adminPassword: password,
  });
  const api = {} as TasksListFigures['api'];
  try {
    const op = await operator(admin.readyMatch[1]!, password);
    const client = new TimedClient(admin.readyMatch[1]!, op.sessionCookie!);
    // Cursors are signed per admin process (admin/catalog/common.ts): the deep page's comes from
    // the admin itself — a search for the deep row's neighbours, one per page, hands it out.
    const near = await op.get(`/api/tasks?q=${encodeURIComponent(deepRow.task_id.slice(0, -1))}&limit=1`);
    const deepCursor = (near.body as { next_cursor: string | null }).next_cursor;
    if (!deepCursor) throw new Error(`no cursor near ${deepRow.task_id}: ${JSON.stringify(near.body).slice(0, 200)}`);
    const apiCases: Record<Case, ListQuery> = { ...cases, deep: { ...cases.deep, cursor: deepCursor } };
    for (const c of Object.keys(apiCases) as Case[]) {
      const q = apiCases[c];
      const qs = new URLSearchParams(Object.entries(q).map(([k, v]): [string, string] => [k, String(v)])).toString();
      const p50: number[] = [];
      const p99: number[] = [];
      for (let round = 0; round < opts.rounds; round++) {
        const times: number[] = [];
        for (let i = 0; i < SAMPLES + 10; i++) {
          const res = await client.get(`/api/tasks?${qs}`);
          if (res.status !== 200) throw new Error(`GET /api/tasks?${qs}: ${res.status} ${res.body.slice(0, 200)}`);
          if (i === 0 && (JSON.parse(res.body) as { items: unknown[] }).items.length === 0)
            throw new Error(`GET /api/tasks?${qs} found nothing: the case measures an empty page`);
          if (i >= 10) times.push(res.ms); // the first ten warm the page cache and the JIT
        }
        p50.push(percentile(times, 50));
        p99.push(percentile(times, 99));
      }
      api[c] = { p50: spread(p50), p99: spread(p99) };
      opts.say(
        `tasks list ${c}: API p50 ${round(api[c].p50.median, 3)} ms p99 ${round(api[c].p99.median, 3)} ms; SQL p50 ${round(sql[c].p50.median, 3)} ms p99 ${round(sql[c].p99.median, 3)} ms; plan: ${plans[c]}`,
      );
    }
    client.close();
  } finally {
    await stopChild(admin);
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
  return { tasks: opts.tasks, seedMs, api, sql, plans };
}

/**
 * The SQL `listTasks` runs for each case, taken from Kysely's query log on a read-only file: every
 * statement of one call (a search asks the trigram index for its candidates first), run bare one
 * after another as the case's bare time; the plan shown is the last one's, the page itself.
 */
async function captureSql(file: string, cases: Record<Case, ListQuery>): Promise<Record<Case, CompiledQuery[]>> {
  const log: CompiledQuery[] = [];
  const db = new Kysely<AdminDatabase>({
    dialect: new SqliteDialect({ database: new Database(file, { readonly: true }) }),
    log: (event) => {
      log.push(event.query);
    },
  });
  const out = {} as Record<Case, CompiledQuery[]>;
  try {
    for (const c of Object.keys(cases) as Case[]) {
      log.length = 0;
      await listTasks(db, cases[c]);
      out[c] = [...log];
    }
  } finally {
    await db.destroy();
  }
  return out;
}
