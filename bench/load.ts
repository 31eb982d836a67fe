import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TimedClient } from './http';
import { draftDryRuns, startTasks } from './purchases';
import { cpuMs, cpuMsOf, startStack, type Stack } from './stack';
import { percentile } from './stats';
import type { BenchTemporal } from './temporal';

/**
 * Operators under load, on loopback: the time `POST /api/tasks/start` takes for a 500-task batch,
 * then `GET /api/tasks` at a fixed rate while that batch runs on the phones (workflows writing
 * the same SQLite file through the admin worker).
 *
 * The generator is open-loop: request n is due at n / rate seconds whatever the earlier answers
 * did, and its latency counts from when it was due — a slow answer cannot hide the requests that
 * queued behind it (coordinated omission). Node's own `http` keeps this free of a dependency.
 */
export interface LoadRound {
  requests: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  errors: number;
  start500Ms: number;
  /** purchases that finished while the load ran */
  finishedDuringLoad: number;
  /** the admin's event-loop delay over the load window (its own /metrics), p99 and max in ms */
  eventLoopP99Ms: number;
  eventLoopMaxMs: number;
  /** how late the generator itself sent its requests, p99 in ms: counted in the latencies, and not the admin's doing */
  generatorLateP99Ms: number;
  /** cores each part of the stack used over the load window (CPU ms / window ms): who the admin shares the two cores with, and what the host took (steal) */
  cores: Record<string, number>;
}

export async function benchLoad(opts: {
  temporal: BenchTemporal;
  root: string;
  phones: number;
  rate: number;
  seconds: number;
  rounds: number;
  say: (l: string) => void;
}): Promise<LoadRound[]> {
  const root = path.join(opts.root, 'load');
  fs.mkdirSync(root, { recursive: true });
  const password = 'bench-admin-password-0123';
  const stack = await startStack({
    root,
    // its own namespace: the batch is left unfinished, and no later part may pick it up
    temporal: { address: opts.temporal.address, namespace: opts.temporal.loadNamespace },
    workflowBundlePath: opts.temporal.workflowBundlePath,
    phones: opts.phones,
    latency: 'zero',
    adminPassword: password,
  });
  try {
    await stack.addPhoneHosts(opts.phones);
    const client = new TimedClient(stack.adminUrl, stack.op.sessionCookie!);
    await draftDryRuns(stack, 100); // a list of fifty rows to read
    const idleCost = await adminCpuPerList(client, stack.adminPid);
    generatorFirst(opts.say);
    opts.say(`load: idle admin, GET /api/tasks one at a time: ${idleCost.toFixed(2)} ms of admin CPU each`);
    const rounds: LoadRound[] = [];
    // each round starts one more batch; the earlier ones are still queued or running
    for (let r = 0; r < opts.rounds; r++) {
      const drafts = await draftDryRuns(stack, 500);
      const started = performance.now();
      await startTasks(stack.op, drafts);
      const start500Ms = performance.now() - started;
      const doneBefore = await finished(stack.op);
      await eventLoopDelay(stack.adminUrl); // prom-client resets the delay histogram at each scrape
      const parts = stackParts(stack, opts.temporal.server.pid);
      const cpuBefore = cpuOf(parts);
      const stealBefore = stealMs();
      const windowStarted = performance.now();
      const results = await openLoop(opts.rate, opts.seconds, () => listPage(client));
      const windowMs = performance.now() - windowStarted;
      const cores = {
        ...coresSince(parts, cpuBefore, windowMs),
        'the host (steal)': (stealMs() - stealBefore) / windowMs,
      };
      const loop = await eventLoopDelay(stack.adminUrl);
      const finishedDuringLoad = (await finished(stack.op)) - doneBefore;
      const latencies = results.map((x) => x.ms);
      const round: LoadRound = {
        requests: results.length,
        p50Ms: percentile(latencies, 50),
        p99Ms: percentile(latencies, 99),
        maxMs: Math.max(...latencies),
        errors: results.filter((x) => x.status !== 200).length,
        start500Ms,
        finishedDuringLoad,
        eventLoopP99Ms: loop.p99Ms,
        eventLoopMaxMs: loop.maxMs,
        generatorLateP99Ms: percentile(
          results.map((x) => x.lateMs),
          99,
        ),
        cores,
      };
      opts.say(
        `load: start 500 in ${start500Ms.toFixed(0)} ms; ${round.requests} GET /api/tasks at ${opts.rate}/s: p50 ${round.p50Ms.toFixed(1)} ms, p99 ${round.p99Ms.toFixed(1)} ms, max ${round.maxMs.toFixed(0)} ms, ${round.errors} errors${errorKinds(results)}; ${finishedDuringLoad} purchases finished meanwhile; the generator sent late by p99 ${round.generatorLateP99Ms.toFixed(1)} ms; admin event-loop delay p99 ${loop.p99Ms.toFixed(1)} ms, max ${loop.maxMs.toFixed(0)} ms; cores used: ${Object.entries(
          cores,
        )
          .map(([k, v]) => `${k} ${v.toFixed(2)}`)
          .join(', ')}`,
      );
      rounds.push(round);
    }
    client.close();
    return rounds;
  } finally {
    await stack.close();
  }
}

/** The stack's processes by part, as the load figures are read: who else wants the two cores. */
function stackParts(stack: Stack, temporalPid: number): Record<string, number[]> {
  const hosts = stack.hosts.map((h) => h.process.process.pid!);
  const named = new Set([stack.adminPid, stack.adminWorkerPid, temporalPid, ...hosts]);
  return {
    admin: [stack.adminPid],
    'admin worker': stack.adminWorkerPid === stack.adminPid ? [] : [stack.adminWorkerPid],
    temporal: [temporalPid],
    'device workers': hosts,
    simulator: stack.pids().filter((p) => !named.has(p)),
    'bench (load generator)': [process.pid],
  };
}

function cpuOf(parts: Record<string, number[]>): Record<string, number> {
  return Object.fromEntries(Object.entries(parts).map(([k, pids]) => [k, cpuMsOf(pids)]));
}

function coresSince(parts: Record<string, number[]>, before: Record<string, number>, windowMs: number) {
  const now = cpuOf(parts);
  return Object.fromEntries(Object.keys(parts).map((k) => [k, (now[k]! - before[k]!) / windowMs]));
}

/**
 * CPU time the hypervisor gave to others while our virtual cores wanted it (`steal` in
 * /proc/stat, in ms; 0 where there is none). On a shared host it stalls every process at once,
 * whatever its niceness: read a round's tail with it.
 */
function stealMs(): number {
  try {
    const cpu = fs.readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/);
    return (Number(cpu[8] ?? 0) * 1000) / USER_HZ;
  } catch {
    return 0;
  }
}
/** /proc/stat's unit on Linux (`getconf CLK_TCK`), fixed for user space */
const USER_HZ = 100;

/**
 * The generator stands for operators' browsers, which run on other machines: on this one it must
 * not wait for a core itself, or its own lateness (counted in every latency, as it must be) is
 * read as the admin's. Raised above everything when the bench may (root, or CAP_SYS_NICE);
 * otherwise it says so, and the figures include the generator's waits.
 */
export function generatorFirst(say: (l: string) => void): void {
  try {
    os.setPriority(GENERATOR_NICE);
  } catch {
    say(`load: the generator could not take nice ${GENERATOR_NICE}; its own waits for a core count in the latencies`);
  }
}
const GENERATOR_NICE = -10;

async function openLoop<T extends { ms: number }>(
  rate: number,
  seconds: number,
  send: () => Promise<T>,
): Promise<Array<T & { lateMs: number }>> {
  const total = rate * seconds;
  const pending: Array<Promise<T & { lateMs: number }>> = [];
  const t0 = performance.now();
  for (let n = 0; n < total; n++) {
    const due = t0 + (n * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    const lateBy = performance.now() - due;
    pending.push(send().then((r) => ({ ...r, ms: r.ms + Math.max(0, lateBy), lateMs: Math.max(0, lateBy) })));
  }
  return Promise.all(pending);
}

/**
 * One `GET /api/tasks`, its body kept only when it failed (errorKinds reads it). Every answer
 * kept made the generator hold a round's 6,000 pages, and its own garbage collection then sent
 * requests late, which the latencies count as the admin's.
 */
async function listPage(client: TimedClient): Promise<{ status: number; ms: number; body: string }> {
  const res = await client.get('/api/tasks?limit=50');
  return res.status === 200 ? { ...res, body: '' } : res;
}

async function finished(op: { get(p: string): Promise<{ status: number; body: unknown }> }): Promise<number> {
  let count = 0;
  let cursor: string | null = null;
  do {
    const res = await op.get(
      `/api/tasks?status=DRY_RUN_PASSED&limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    const body = res.body as { items: unknown[]; next_cursor: string | null };
    count += body.items.length;
    cursor = body.next_cursor;
  } while (cursor);
  return count;
}

/**
 * The admin's event-loop delay since the previous scrape, from its own `/metrics` (prom-client's
 * monitorEventLoopDelay): how long a request that arrived could have waited for the loop alone.
 */
export async function eventLoopDelay(adminUrl: string): Promise<{ p99Ms: number; maxMs: number }> {
  const text = await (await fetch(`${adminUrl}/metrics`)).text();
  const read = (name: string) => {
    const m = new RegExp(`^cmautobuy_process_nodejs_eventloop_lag_${name}_seconds(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(
      text,
    );
    return m ? Number(m[1]) * 1000 : NaN;
  };
  return { p99Ms: read('p99'), maxMs: read('max') };
}

/**
 * The admin's own CPU time per `GET /api/tasks` on an idle stack, requests one at a time: what
 * one list request costs the admin, so the load figures can be read against it (at 200
 * requests/s every millisecond here is a fifth of a core).
 */
async function adminCpuPerList(client: TimedClient, adminPid: number): Promise<number> {
  const n = 500;
  for (let i = 0; i < 50; i++) await client.get('/api/tasks?limit=50');
  const before = cpuMs(adminPid);
  for (let i = 0; i < n; i++) await client.get('/api/tasks?limit=50');
  return (cpuMs(adminPid) - before) / n;
}

/**
 * What the failed requests answered, e.g. ` (503 AUTH_STORE_UNAVAILABLE ×3, no answer ×1)`: a
 * run's errors are rare and gone in the next, so the run itself must say what they were.
 */
function errorKinds(results: ReadonlyArray<{ status: number; body: string }>): string {
  const kinds = new Map<string, number>();
  for (const r of results) {
    if (r.status === 200) continue;
    const code = /"code":"([A-Z_]+)"/.exec(r.body)?.[1];
    const kind = r.status === 0 ? 'no answer' : `${r.status}${code ? ` ${code}` : ''}`;
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  }
  return kinds.size === 0 ? '' : ` (${[...kinds].map(([k, n]) => `${k} ×${n}`).join(', ')})`;
}
