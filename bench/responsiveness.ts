import fs from 'node:fs';
import path from 'node:path';
import { startChild, stopChild, type RunningChild } from '../platform/children';
import { TimedClient } from './http';
import { shopeeExport } from './import';
import { eventLoopDelay, generatorFirst } from './load';
import { hostileWorkbook, loadUpstream, postImport, runSync } from './responsiveness-work';
import { operator, startAdminProcess, startAdminWorkerProcess, tsEntry } from './stack-processes';
import { percentile } from './stats';
import type { BenchTemporal } from './temporal';

/**
 * Whether the admin still answers while it works on outside input: `GET /healthz` and an
 * operator's `GET /api/tasks` (first page), on loopback, from an open-loop generator (latency
 * counts from when a request was due, bench/load.ts), while
 * - nothing else runs (the floor),
 * - a large Shopee export is imported (`POST /api/shopee/imports`),
 * - a 顺运宝 sync reads a large upstream (many shipments of many lines, served by the 顺运宝
 *   simulator in a process of its own) in the admin worker,
 * - a hostile workbook (one row of start tags that never close) is imported.
 * Each round ends when its work does or at its cap, whichever comes first: the request loop is
 * bounded by rate × cap, and a request unanswered after REQUEST_TIMEOUT_MS counts as a time-out
 * at that value (so a p99 at the time-out means "no answer"). A work that passed its cap is
 * reported as not finished; the rounds share one admin, stopped at the end.
 */
const RATE = 20; // requests per second in all, alternating /healthz and /api/tasks
const REQUEST_TIMEOUT_MS = 10_000;
const PASSWORD = 'bench-admin-password-0123';
/** the hostile workbook is sent again and again for this long, if one import of it is quick */
const HOSTILE_MIN_MS = 15_000;

interface EndpointFigures {
  requests: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  errors: number;
  /** what the errors were, e.g. `503 ×2` */
  errorKinds: string;
  timeouts: number;
}

export interface ResponsivenessRound {
  name: 'idle' | 'import' | 'syb-sync' | 'hostile-import';
  /** what the admin worked on */
  what: string;
  /** how long the work took (the median of `runs`), or null when one did not finish within `capMs` */
  workMs: number | null;
  /** how many times the work ran back to back in the round */
  runs: number;
  capMs: number;
  /** how the work ended: the HTTP status and code of an import, a sync's counts or last_error */
  outcome: string;
  healthz: EndpointFigures;
  tasks: EndpointFigures;
  /** the admin's event-loop delay over the round (its own /metrics), or NaN if it did not answer */
  eventLoopMaxMs: number;
}

export interface ResponsivenessFigures {
  rounds: ResponsivenessRound[];
  json: Record<string, { healthz_p99_ms: number; tasks_p99_ms: number; work_ms: number | null; timeouts: number }>;
}

interface Admin {
  admin: RunningChild;
  worker: RunningChild;
  url: string;
  client: TimedClient;
  cookie: string;
  csrf: string;
}

export async function benchResponsiveness(opts: {
  temporal: BenchTemporal;
  root: string;
  importRows: number;
  sybShipments: number;
  sybLinesPerShipment: number;
  hostileTags: number;
  idleSeconds: number;
  capSeconds: { import: number; sync: number; hostile: number };
  say: (l: string) => void;
}): Promise<ResponsivenessFigures> {
  const root = path.join(opts.root, 'responsiveness');
  const logs = path.join(root, 'logs');
  fs.mkdirSync(logs, { recursive: true });
  generatorFirst(opts.say);
  const syb = await startChild({
    name: 'syb-sim',
    background: true,
    command: process.execPath,
    args: tsEntry('sim/syb/main.ts'),
    env: { CMAUTOBUY_SYB_SIM_PORT: '0' },
    readyLine: /SYB SIM READY url=(\S+)/,
    logFile: path.join(logs, 'syb-sim.out'),
  });
  let a: Admin | undefined;
  try {
    const sybUrl = syb.readyMatch[1]!;
    const lines = await loadUpstream(sybUrl, opts.sybShipments, opts.sybLinesPerShipment);
    a = await startAdmin(root, logs, opts.temporal, await sybAccountEnv(sybUrl));
    const admin = a;
    // a first page of tasks to read, and warm sockets and caches before the floor is taken
    for (let i = 0; i < 40; i++)
      await Promise.all([admin.client.get('/healthz'), admin.client.get('/api/tasks?limit=50')]);

    const rounds: ResponsivenessRound[] = [];
    const say = (r: ResponsivenessRound) => {
      rounds.push(r);
      opts.say(`responsiveness: ${describeRound(r)}`);
    };

    say(
      await round(admin, 'idle', 'nothing (the floor)', { capMs: opts.idleSeconds * 1000 + 5_000 }, async () => {
        await sleep(opts.idleSeconds * 1000);
        return 'no work';
      }),
    );

    const exportBytes = await shopeeExport(opts.importRows, 7);
    say(
      await round(
        admin,
        'import',
        `a ${opts.importRows.toLocaleString('en')}-row Shopee export (${(exportBytes.length / 2 ** 20).toFixed(1)} MiB)`,
        { capMs: opts.capSeconds.import * 1000 },
        (signal) => postImport(admin, exportBytes, signal),
      ),
    );

    say(
      await round(
        admin,
        'syb-sync',
        `a 顺运宝 sync of ${opts.sybShipments} shipments × ${opts.sybLinesPerShipment} lines (${lines.toLocaleString('en')} lines)`,
        { capMs: opts.capSeconds.sync * 1000 },
        (signal) => runSync(admin, signal),
      ),
    );

    const hostile = hostileWorkbook(opts.hostileTags);
    const hostileRound = await round(
      admin,
      'hostile-import',
      `a ${(hostile.length / 1024).toFixed(1)} KiB workbook: one row of ${opts.hostileTags.toLocaleString('en')} unclosed \`<c>\` tags`,
      { capMs: opts.capSeconds.hostile * 1000, minMs: HOSTILE_MIN_MS },
      (signal) => postImport(admin, hostile, signal),
    );
    say(hostileRound);
    return { rounds, json: toJson(rounds) };
  } finally {
    if (a) await stopAdmin(a);
    await stopChild(syb);
  }
}

/** The simulator's account, as the admin and its worker take it from the environment. */
async function sybAccountEnv(sybUrl: string): Promise<Record<string, string>> {
  const c = (await (await fetch(`${sybUrl}/control/credentials`)).json()) as { username: string; password: string };
  return { CMAUTOBUY_SYB_URL: sybUrl, CMAUTOBUY_SYB_USERNAME: c.username, CMAUTOBUY_SYB_PASSWORD: c.password };
}

async function startAdmin(
  root: string,
  logs: string,
  temporal: BenchTemporal,
  env: Record<string, string>,
): Promise<Admin> {
  const common = {
    dataDir: path.join(root, 'admin'),
    logs,
    temporal: { address: temporal.address, namespace: temporal.responsivenessNamespace },
    workflowBundlePath: temporal.workflowBundlePath,
    env,
  };
  const admin = await startAdminProcess({ ...common, adminPassword: PASSWORD });
  let worker: RunningChild;
  try {
    worker = await startAdminWorkerProcess(common);
  } catch (err) {
    await stopChild(admin, 2_000);
    throw err;
  }
  const url = admin.readyMatch[1]!;
  const op = await operator(url, PASSWORD);
  const cookie = op.sessionCookie!;
  return { admin, worker, url, cookie, csrf: op.csrfToken!, client: new TimedClient(url, cookie) };
}

async function stopAdmin(a: Admin): Promise<void> {
  a.client.close();
  // a frozen admin does not run its SIGTERM handler: killed after 2 s
  await stopChild(a.admin, 2_000);
  await stopChild(a.worker, 5_000);
}

/**
 * One round: the work starts (again and again, back to back, until `minMs` has passed: a work
 * done in a blink is measured under a stream of them, as an attacker would send it), the
 * generator sends until it ends or its cap passes (then the work is aborted), and every request
 * sent is awaited (each bounded by REQUEST_TIMEOUT_MS).
 */
async function round(
  a: Admin,
  name: ResponsivenessRound['name'],
  what: string,
  limits: { capMs: number; minMs?: number },
  work: (signal: AbortSignal) => Promise<string>,
): Promise<ResponsivenessRound> {
  await eventLoopDelay(a.url).catch(() => undefined); // prom-client resets its histogram at each scrape
  const abort = new AbortController();
  const started = performance.now();
  const runs: number[] = [];
  let outcome = '';
  let done = false;
  let unfinished = false;
  const running = (async () => {
    do {
      const t = performance.now();
      outcome = await work(abort.signal);
      runs.push(performance.now() - t);
    } while (performance.now() - started < (limits.minMs ?? 0) && !abort.signal.aborted);
  })().catch((err: unknown) => {
    const finished = runs.length ? `; ${runs.length} run(s) had finished` : '';
    unfinished = true;
    outcome = abort.signal.aborted
      ? `did not finish in ${Math.round(limits.capMs / 1000)} s${finished}`
      : `failed: ${String(err)}`;
  });
  void running.finally(() => (done = true));
  const cap = setTimeout(() => abort.abort(), limits.capMs);
  const results = await openLoopUntil(
    RATE,
    limits.capMs,
    () => done,
    (n) =>
      a.client.get(n % 2 === 0 ? '/healthz' : '/api/tasks?limit=50', REQUEST_TIMEOUT_MS).then((r) => ({
        ...r,
        body: r.status === 200 ? '' : r.body, // only a failure's body is read (errorKinds)
        endpoint: n % 2 === 0 ? ('healthz' as const) : ('tasks' as const),
      })),
  );
  abort.abort();
  clearTimeout(cap);
  await running;
  const loop = await Promise.race([
    eventLoopDelay(a.url),
    sleep(REQUEST_TIMEOUT_MS).then(() => ({ p99Ms: NaN, maxMs: NaN })),
  ]).catch(() => ({ p99Ms: NaN, maxMs: NaN }));
  return {
    name,
    what,
    workMs: runs.length > 0 && !unfinished ? percentile(runs, 50) : null,
    runs: runs.length,
    capMs: limits.capMs,
    outcome,
    healthz: figures(results.filter((r) => r.endpoint === 'healthz')),
    tasks: figures(results.filter((r) => r.endpoint === 'tasks')),
    eventLoopMaxMs: loop.maxMs,
  };
}

/** The open-loop generator of bench/load.ts, sending until `stop()` says so or `capMs` passes. */
async function openLoopUntil<T extends { ms: number }>(
  rate: number,
  capMs: number,
  stop: () => boolean,
  send: (n: number) => Promise<T>,
): Promise<T[]> {
  const pending: Array<Promise<T>> = [];
  const t0 = performance.now();
  const most = Math.ceil((rate * capMs) / 1000);
  for (let n = 0; n < most && !stop(); n++) {
    const due = t0 + (n * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    if (stop()) break;
    const late = Math.max(0, performance.now() - due);
    pending.push(send(n).then((r) => ({ ...r, ms: r.ms + late })));
  }
  return Promise.all(pending);
}

function errorKinds(results: ReadonlyArray<{ status: number; body: string; timedOut?: boolean }>): string {
  const kinds = new Map<string, number>();
  for (const r of results) {
    if (r.status === 200 || r.timedOut) continue;
    const kind = r.status === 0 ? 'no answer' : `${r.status} ${r.body.slice(0, 80)}`;
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  }
  return [...kinds].map(([k, n]) => `${k} ×${n}`).join(', ');
}

function figures(
  results: ReadonlyArray<{ status: number; ms: number; body: string; timedOut?: boolean }>,
): EndpointFigures {
  const ms = results.map((r) => (r.timedOut ? Math.max(r.ms, REQUEST_TIMEOUT_MS) : r.ms));
  return {
    requests: results.length,
    p50Ms: percentile(ms, 50),
    p99Ms: percentile(ms, 99),
    maxMs: ms.length ? Math.max(...ms) : NaN,
    errors: results.filter((r) => r.status !== 200 && !r.timedOut).length,
    errorKinds: errorKinds(results),
    timeouts: results.filter((r) => r.timedOut).length,
  };
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function describeRound(r: ResponsivenessRound): string {
  const e = (f: EndpointFigures) =>
    `p50 ${f.p50Ms.toFixed(1)} / p99 ${f.p99Ms.toFixed(1)} / max ${f.maxMs.toFixed(0)} ms (${f.requests} requests, ${f.errors} errors, ${f.timeouts} timed out)`;
  const work =
    r.workMs === null ? `did not finish in ${Math.round(r.capMs / 1000)} s` : `${Math.round(r.workMs)} ms × ${r.runs}`;
  return `${r.name} — ${r.what}: work ${work} (${r.outcome}); /healthz ${e(r.healthz)}; /api/tasks ${e(r.tasks)}; admin event-loop delay max ${r.eventLoopMaxMs.toFixed(0)} ms`;
}

function toJson(rounds: ResponsivenessRound[]): ResponsivenessFigures['json'] {
  const r2 = (n: number) => Math.round(n * 100) / 100;
  return Object.fromEntries(
    rounds.map((r) => [
      r.name.replace('-', '_'),
      {
        healthz_p99_ms: r2(r.healthz.p99Ms),
        tasks_p99_ms: r2(r.tasks.p99Ms),
        work_ms: r.workMs === null ? null : Math.round(r.workMs),
        timeouts: r.healthz.timeouts + r.tasks.timeouts,
      },
    ]),
  );
}
