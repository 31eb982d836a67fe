import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, type CompiledQuery } from 'kysely';
import type { AdminDatabase } from '../admin/db/schema';
import { openMigratedAdminDb } from '../admin/db/database';
import type { Overview } from '../domain/money-views';
import { moneyOverview } from '../admin/money/overview';
import type { DayRange } from '../admin/money/range';
import { dataPaths } from '../platform/data-dir';
import { stopChild } from '../platform/children';
import { TimedClient } from './http';
import { directOverview, firstDifference } from './money-direct';
import { FIRST_DAY, purchaseOf, seedMoney, writePurchases, type MoneySeedFigures } from './money-seed';
import { operator, startAdminProcess } from './stack-processes';
import { percentile, round, spread, type Spread } from './stats';
import type { BenchTemporal } from './temporal';

/**
 * `GET /api/money/overview` over a year of purchases (bench/money-seed.ts: the daily figures
 * written by the migration's triggers as the purchases move on). The API through HTTP on an admin
 * process, beside `moneyOverview` called in this process on the same file, and the plan of each
 * statement it runs. Then purchases move on while the admin runs, and the overview's figures are
 * compared with the same figures worked out from the rows (bench/money-direct.ts).
 */
const DAYS = 365;
const SAMPLES = 300;
const CASES = ['year', 'month'] as const;
type Case = (typeof CASES)[number];

export interface MoneyOverviewFigures {
  seed: MoneySeedFigures;
  seedMs: number;
  ranges: Record<Case, DayRange>;
  /** over `rounds` rounds of SAMPLES requests each */
  api: Record<Case, { p50: Spread; p99: Spread; max: Spread }>;
  /** `moneyOverview` in this process on a read-only connection: the SQL and the aggregation, no HTTP */
  inProcess: Record<Case, { p50: Spread; p99: Spread }>;
  responseKib: Record<Case, number>;
  moneyDaysRead: Record<Case, number>;
  plans: string[];
  /** null: the overview and the rows agree, before and after the purchases moved on while the admin ran */
  difference: { seeded: string | null; afterChanges: string | null };
  changes: number;
}

const dayOf = (from: string, plus: number) =>
  new Date(Date.parse(`${from}T00:00:00Z`) + plus * 86_400_000).toISOString().slice(0, 10);

export async function benchMoneyOverview(opts: {
  temporal: BenchTemporal;
  root: string;
  tasks: number;
  rounds: number;
  say: (l: string) => void;
}): Promise<MoneyOverviewFigures> {
  const dataDir = path.join(opts.root, `money-${opts.tasks}`);
  fs.mkdirSync(dataDir, { recursive: true });
  const file = dataPaths(dataDir).adminDb;
  await (await openMigratedAdminDb(file)).destroy();
  const started = performance.now();
  const seed = seedMoney(file, {
    tasks: opts.tasks,
    days: DAYS,
    sample: Math.min(10_000, Math.floor(opts.tasks / 50)),
  });
  const seedMs = performance.now() - started;
  opts.say(
    `money overview: seeded ${opts.tasks} purchases over ${DAYS} days in ${(seedMs / 1000).toFixed(1)} s, ${seed.moneyDaysRows} money_days rows`,
  );
  const last = dayOf(FIRST_DAY, DAYS - 1);
  const ranges: Record<Case, DayRange> = {
    year: { from: FIRST_DAY, to: last },
    month: { from: dayOf(last, -29), to: last },
  };

  const seeded = compare(file, await inProcessOverview(file, ranges.year), ranges.year);
  const { inProcess, plans, moneyDaysRead } = await measureInProcess(file, ranges, opts.rounds);
  const { api, responseKib, changes, afterChanges } = await measureApi(dataDir, opts, ranges);
  for (const c of CASES)
    opts.say(
      `money overview ${c}: API p50 ${round(api[c].p50.median)} ms p99 ${round(api[c].p99.median)} ms max ${round(api[c].max.median)} ms; in process p50 ${round(inProcess[c].p50.median)} ms p99 ${round(inProcess[c].p99.median)} ms`,
    );
  opts.say(
    `money overview: figures against the rows: ${seeded ?? 'equal'}; after ${changes} changes: ${afterChanges ?? 'equal'}`,
  );
  fs.rmSync(dataDir, { recursive: true, force: true });
  return {
    seed,
    seedMs,
    ranges,
    api,
    inProcess,
    responseKib,
    moneyDaysRead,
    plans,
    difference: { seeded, afterChanges },
    changes,
  };
}

/** Each range through HTTP on an admin process over the file; then purchases move on and the overview is checked again. */
async function measureApi(
  dataDir: string,
  opts: { temporal: BenchTemporal; tasks: number; rounds: number },
  ranges: Record<Case, DayRange>,
) {
  const password = 'bench-admin-password-0123';
  const admin = await startAdminProcess({
    dataDir,
    logs: path.join(dataDir, 'logs'),
    temporal: opts.temporal,
    workflowBundlePath: opts.temporal.workflowBundlePath,
    adminPassword: password,
  });
  const api = {} as MoneyOverviewFigures['api'];
  const responseKib = {} as MoneyOverviewFigures['responseKib'];
  try {
    const op = await operator(admin.readyMatch[1]!, password);
    const client = new TimedClient(admin.readyMatch[1]!, op.sessionCookie!);
    const get = async (r: DayRange) => {
      const res = await client.get(`/api/money/overview?from=${r.from}&to=${r.to}`);
      if (res.status !== 200) throw new Error(`GET /api/money/overview: ${res.status} ${res.body.slice(0, 200)}`);
      return res;
    };
    for (const c of CASES) {
      // the first ten warm the page cache and the JIT
      for (let i = 0; i < 10; i++) responseKib[c] = (await get(ranges[c])).body.length / 1024;
      const p50: number[] = [];
      const p99: number[] = [];
      const max: number[] = [];
      for (let r = 0; r < opts.rounds; r++) {
        const times: number[] = [];
        for (let i = 0; i < SAMPLES; i++) times.push((await get(ranges[c])).ms);
        p50.push(percentile(times, 50));
        p99.push(percentile(times, 99));
        max.push(Math.max(...times));
      }
      api[c] = { p50: spread(p50), p99: spread(p99), max: spread(max) };
    }
    const file = dataPaths(dataDir).adminDb;
    const changes = moveOn(file, opts.tasks, ranges.year.to);
    const afterChanges = compare(file, JSON.parse((await get(ranges.year)).body) as Overview, ranges.year);
    client.close();
    return { api, responseKib, changes, afterChanges };
  } finally {
    await stopChild(admin);
  }
}

function compare(file: string, got: Overview, range: DayRange): string | null {
  const bare = new Database(file, { readonly: true });
  try {
    return firstDifference(got, directOverview(bare, range));
  } finally {
    bare.close();
  }
}

/** A read-only Kysely on the file, its statements logged. */
function kyselyOn(file: string, log: CompiledQuery[]) {
  return new Kysely<AdminDatabase>({
    dialect: new SqliteDialect({ database: new Database(file, { readonly: true }) }),
    log: (event) => {
      log.push(event.query);
    },
  });
}

async function inProcessOverview(file: string, range: DayRange): Promise<Overview> {
  const db = kyselyOn(file, []);
  try {
    return await moneyOverview(db, range);
  } finally {
    await db.destroy();
  }
}

/** `moneyOverview` timed in this process, and the plan of every statement it runs for a year. */
async function measureInProcess(file: string, ranges: Record<Case, DayRange>, rounds: number) {
  const log: CompiledQuery[] = [];
  const db = kyselyOn(file, log);
  const inProcess = {} as MoneyOverviewFigures['inProcess'];
  const moneyDaysRead = {} as MoneyOverviewFigures['moneyDaysRead'];
  try {
    for (const c of CASES) {
      for (let i = 0; i < 10; i++) await moneyOverview(db, ranges[c]);
      const p50: number[] = [];
      const p99: number[] = [];
      for (let r = 0; r < rounds; r++) {
        const times: number[] = [];
        for (let i = 0; i < SAMPLES; i++) {
          const t0 = performance.now();
          await moneyOverview(db, ranges[c]);
          times.push(performance.now() - t0);
        }
        p50.push(percentile(times, 50));
        p99.push(percentile(times, 99));
      }
      inProcess[c] = { p50: spread(p50), p99: spread(p99) };
    }
    log.length = 0;
    await moneyOverview(db, ranges.year);
    const bare = new Database(file, { readonly: true });
    try {
      for (const c of CASES)
        moneyDaysRead[c] = (
          bare
            .prepare('SELECT COUNT(*) AS n FROM money_days WHERE day BETWEEN ? AND ?')
            .get(ranges[c].from, ranges[c].to) as { n: number }
        ).n;
      const plans = log.map(
        (q) =>
          `${q.sql.replace(/\s+/g, ' ').slice(0, 60)}… → ${(
            bare.prepare(`EXPLAIN QUERY PLAN ${q.sql}`).all(q.parameters as unknown[]) as Array<{ detail: string }>
          )
            .map((p) => p.detail)
            .join('; ')}`,
      );
      return { inProcess, plans, moneyDaysRead };
    } finally {
      bare.close();
    }
  } finally {
    await db.destroy();
  }
}

/**
 * While the admin runs, on a connection of the bench's own: a hundred purchases waiting for
 * payment are paid on the last day, and a hundred new purchases run their whole course that day.
 */
function moveOn(file: string, tasks: number, lastDay: string): number {
  const db = new Database(file);
  db.pragma('busy_timeout = 10000');
  try {
    const pay = db.prepare("UPDATE tasks SET status = 'SUCCEEDED', updated_at = ? WHERE task_id = ?");
    const waiting = db
      .prepare("SELECT task_id FROM tasks WHERE status = 'WAITING_PAYMENT' ORDER BY task_id LIMIT 100")
      .all() as Array<{
      task_id: string;
    }>;
    // 15:00 Taipei on the last day
    const at = `${lastDay}T07:00:00Z`;
    db.transaction(() => {
      for (const w of waiting) pay.run(at, w.task_id);
      // the last 100 slots of the year once more, as new purchases
      writePurchases(db, function* () {
        for (let i = tasks - 100; i < tasks; i++) yield purchaseOf(i, tasks, DAYS, 'n');
      });
    })();
    return waiting.length + 100;
  } finally {
    db.close();
  }
}

/** The figures under their fixed `--json` keys. */
export function moneyOverviewJson(f: MoneyOverviewFigures) {
  const perTransitionUs = (figures: MoneySeedFigures['overhead']['with']) =>
    Object.fromEntries(Object.entries(figures).map(([k, v]) => [k, round((v.ms * 1000) / Math.max(1, v.rows), 1)]));
  return {
    p99_ms: { year: round(f.api.year.p99.median), month: round(f.api.month.p99.median) },
    p50_ms: { year: round(f.api.year.p50.median), month: round(f.api.month.p50.median) },
    in_process_p99_ms: { year: round(f.inProcess.year.p99.median), month: round(f.inProcess.month.p99.median) },
    seed_s: round(f.seedMs / 1000, 1),
    write_us_with_triggers: perTransitionUs(f.seed.overhead.with),
    write_us_without_triggers: perTransitionUs(f.seed.overhead.without),
    figures_match_rows: f.difference.seeded === null && f.difference.afterChanges === null,
  };
}
