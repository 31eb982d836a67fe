import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, type CompiledQuery } from 'kysely';
import { encodeCursor } from '../admin/catalog/common';
import { dataPaths } from '../platform/data-dir';
import type { AdminDatabase } from '../admin/db/schema';
import { openMigratedAdminDb } from '../admin/db/database';
import { listTasks, type ListQuery } from '../admin/purchase/queries';
import { stopChild } from '../platform/children';
import { TimedClient } from './http';
import { operator, startAdminProcess } from './stack-processes';
import { percentile, round, spread, type Spread } from './stats';
import { RUNS_PER_TASK, seedTasks } from './tasks-seed';
import type { BenchTemporal } from './temporal';

/**
 * `GET /api/tasks` over a big history (bench/tasks-seed.ts) written straight into the admin's
 * SQLite file after the real migrations. Then the API through HTTP against an admin process,
 * beside the same SQL (captured from `listTasks`) run bare, and the query plan of each.
 */
const PAGE = 50;
const SAMPLES = 200;

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
  const { cases, deepTaskId } = listCases(file, opts.tasks);
  const { sql, plans } = await measureSql(file, cases, opts.rounds);
  const api = await measureApi(dataDir, opts, cases, deepTaskId);
  for (const c of Object.keys(cases) as Case[])
    opts.say(
      `tasks list ${c}: API p50 ${round(api[c].p50.median, 3)} ms p99 ${round(api[c].p99.median, 3)} ms; SQL p50 ${round(sql[c].p50.median, 3)} ms p99 ${round(sql[c].p99.median, 3)} ms; plan: ${plans[c]}`,
    );
  fs.rmSync(dataDir, { recursive: true, force: true });
  return { tasks: opts.tasks, seedMs, api, sql, plans };
}

/** The four pages an operator asks for, as `listTasks` queries on the seeded file. */
function listCases(file: string, tasks: number): { cases: Record<Case, ListQuery>; deepTaskId: string } {
  const bare = new Database(file, { readonly: true });
  try {
    const deepRow = bare
      .prepare('SELECT updated_at, task_id FROM tasks ORDER BY updated_at DESC, task_id DESC LIMIT 1 OFFSET ?')
      .get(Math.floor(tasks * 0.9) - 1) as { updated_at: string; task_id: string };
    const searchFor = bare
      .prepare('SELECT pdd_order_no FROM tasks WHERE pdd_order_no IS NOT NULL ORDER BY updated_at LIMIT 1 OFFSET ?')
      .get(Math.floor(tasks * 0.05)) as { pdd_order_no: string };
    const cases: Record<Case, ListQuery> = {
      first: { limit: PAGE },
      // the page that starts 90 % of the way down, reached by its cursor
      deep: { limit: PAGE, cursor: encodeCursor(JSON.stringify([deepRow.updated_at, deepRow.task_id])) },
      filter: { limit: PAGE, status: 'NEEDS_MANUAL' },
      // an operator looking up one order number among years of tasks
      search: { limit: PAGE, q: searchFor.pdd_order_no },
    };
    return { cases, deepTaskId: deepRow.task_id };
  } finally {
    bare.close();
  }
}

/** p50 and p99 of `SAMPLES` runs of `once`, per round. */
async function timed(rounds: number, once: () => Promise<number> | number): Promise<{ p50: Spread; p99: Spread }> {
  const p50: number[] = [];
  const p99: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const times: number[] = [];
    for (let i = 0; i < SAMPLES; i++) times.push(await once());
    p50.push(percentile(times, 50));
    p99.push(percentile(times, 99));
  }
  return { p50: spread(p50), p99: spread(p99) };
}

/** Each case's statements run bare with better-sqlite3, and the plan of its page query. */
async function measureSql(file: string, cases: Record<Case, ListQuery>, rounds: number) {
  const captured = await captureSql(file, cases);
  const bare = new Database(file, { readonly: true });
  const sql = {} as TasksListFigures['sql'];
  const plans = {} as TasksListFigures['plans'];
  try {
    for (const c of Object.keys(cases) as Case[]) {
      const stmts = captured[c].map((q) => ({ stmt: bare.prepare(q.sql), params: q.parameters as unknown[] }));
      const page = captured[c].at(-1)!;
      sql[c] = await timed(rounds, () => {
        const started = performance.now();
        for (const { stmt, params } of stmts) stmt.all(params);
        return performance.now() - started;
      });
      plans[c] = (
        bare.prepare(`EXPLAIN QUERY PLAN ${page.sql}`).all(page.parameters as unknown[]) as Array<{ detail: string }>
      )
        .map((p) => p.detail)
        .join('; ');
    }
  } finally {
    bare.close();
  }
  return { sql, plans };
}

/** Each case through HTTP on an admin process of its own over the seeded file. */
async function measureApi(
  dataDir: string,
  opts: { temporal: BenchTemporal; rounds: number },
  cases: Record<Case, ListQuery>,
  deepTaskId: string,
): Promise<TasksListFigures['api']> {
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
    const near = await op.get(`/api/tasks?q=${encodeURIComponent(deepTaskId.slice(0, -1))}&limit=1`);
    const deepCursor = (near.body as { next_cursor: string | null }).next_cursor;
    if (!deepCursor) throw new Error(`no cursor near ${deepTaskId}: ${JSON.stringify(near.body).slice(0, 200)}`);
    const apiCases: Record<Case, ListQuery> = { ...cases, deep: { ...cases.deep, cursor: deepCursor } };
    for (const c of Object.keys(apiCases) as Case[]) {
      const qs = new URLSearchParams(
        Object.entries(apiCases[c]).map(([k, v]): [string, string] => [k, String(v)]),
      ).toString();
      const get = async () => {
        const res = await client.get(`/api/tasks?${qs}`);
        if (res.status !== 200) throw new Error(`GET /api/tasks?${qs}: ${res.status} ${res.body.slice(0, 200)}`);
        return res;
      };
      // the first ten warm the page cache and the JIT
      for (let i = 0; i < 10; i++) {
        const res = await get();
        if (i === 0 && (JSON.parse(res.body) as { items: unknown[] }).items.length === 0)
          throw new Error(`GET /api/tasks?${qs} found nothing: the case measures an empty page`);
      }
      api[c] = await timed(opts.rounds, async () => (await get()).ms);
    }
    client.close();
  } finally {
    await stopChild(admin);
  }
  return api;
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
