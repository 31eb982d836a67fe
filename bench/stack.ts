import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Client, Connection } from '@temporalio/client';
import { dataPaths } from '../platform/data-dir';
import { isTerminal } from '../domain/purchase/state-machine';
import type { PurchaseStatus } from '../domain/purchase/status';
import { ADMIN_TASK_QUEUE, DEVICES_TASK_QUEUE } from '../domain/task-queues';
import { startChild, stopChild, type RunningChild } from '../scripts/supervise/children';
import { provisionSimDevices } from '../scripts/supervise/sim-devices';
import { PROJECT_ROOT } from '../temporal/binaries';
import { OperatorClient } from '../test/harness';
import { temporalDataConverter } from '../temporal/codec';

/**
 * The whole system as separate processes, the way a deployment with many phone hosts runs it:
 * one admin process, one phone simulator process, and per phone a device worker process with its
 * own data dir and its own device token (so nothing is shared between phone hosts but Temporal
 * and the admin's HTTP API). The Temporal server is the caller's: the bench starts its own, the
 * test uses the run's shared one. Children are started with `npm start`'s own helper.
 */
export interface StackOptions {
  /** an empty folder: `admin/` is the admin's data dir, `host-<n>/` each phone host's */
  root: string;
  temporal: { address: string; namespace: string };
  /** a bundle made once by the caller, so the admin process does not bundle the workflows itself */
  workflowBundlePath: string;
  phones: number;
  latency: 'zero' | 'realistic';
  adminPassword: string;
}

export interface PhoneHost {
  deviceId: string;
  serial: string;
  dataDir: string;
  /** this host's ledger (claims, submissions) */
  ledgerFile: string;
  process: RunningChild;
}

export interface Stack {
  adminUrl: string;
  adminPid: number;
  adminWorkerPid: number;
  adminDbFile: string;
  simControlUrl: string;
  op: OperatorClient;
  hosts: PhoneHost[];
  /** starts device workers for the next `count` phones of the simulator, all at once */
  addPhoneHosts(count: number): Promise<PhoneHost[]>;
  /** every process of the stack (simulator, admin, admin worker, device workers) */
  pids(): number[];
  close(): Promise<void>;
}

const inlineWorker = () => process.env.CMAUTOBUY_BENCH_INLINE_WORKER === '1';
const tsEntry = (entry: string, args: string[] = []) => ['--import', 'tsx', path.join(PROJECT_ROOT, entry), ...args];

export async function startStack(opts: StackOptions): Promise<Stack> {
  const adminDir = path.join(opts.root, 'admin');
  const logs = path.join(opts.root, 'logs');
  const temporalEnv = {
    CMAUTOBUY_TEMPORAL_ADDRESS: opts.temporal.address,
    CMAUTOBUY_TEMPORAL_NAMESPACE: opts.temporal.namespace,
    CMAUTOBUY_LOG_LEVEL: 'warn',
    // the run's payload key (test/harness.ts made it): a secret, so handed to each child by name
    CMAUTOBUY_TEMPORAL_PAYLOAD_KEYS: process.env.CMAUTOBUY_TEMPORAL_PAYLOAD_KEYS,
  };
  const children: RunningChild[] = [];
  const closeAll = async () => {
    for (const c of [...children].reverse()) await stopChild(c);
  };
  try {
    const sim = await startChild({
      name: 'sim',
      command: process.execPath,
      args: tsEntry('sim/phone/main.ts'),
      env: {
        CMAUTOBUY_SIM_PHONES: String(opts.phones),
        CMAUTOBUY_SIM_LATENCY: opts.latency,
        CMAUTOBUY_SIM_ADB_PORT: '0',
        CMAUTOBUY_SIM_CONTROL_PORT: '0',
      },
      readyLine: /SIM READY adb=(\d+) control=(\d+)/,
      logFile: path.join(logs, 'sim.out'),
    });
    children.push(sim);
    const admin = await startAdminProcess({
      dataDir: adminDir,
      logs,
      temporal: opts.temporal,
      workflowBundlePath: opts.workflowBundlePath,
      adminPassword: opts.adminPassword,
    });
    children.push(admin);
    // as `npm start` runs it: the admin's Temporal worker in a process of its own
    // (CMAUTOBUY_BENCH_INLINE_WORKER=1: inside the admin process, to compare the two)
    const adminWorker = inlineWorker()
      ? admin
      : await startAdminWorkerProcess({
          dataDir: adminDir,
          logs,
          temporal: opts.temporal,
          workflowBundlePath: opts.workflowBundlePath,
        });
    if (adminWorker !== admin) children.push(adminWorker);
    const adminUrl = admin.readyMatch[1]!;
    const adbPort = sim.readyMatch[1]!;
    const op = await operator(adminUrl, opts.adminPassword);
    const adminDbFile = dataPaths(adminDir).adminDb;
    const hosts: PhoneHost[] = [];

    return {
      adminUrl,
      adminPid: admin.process.pid!,
      adminWorkerPid: adminWorker.process.pid!,
      adminDbFile,
      simControlUrl: `http://127.0.0.1:${sim.readyMatch[2]!}`,
      op,
      hosts,
      async addPhoneHosts(count) {
        const serials = Array.from({ length: count }, (_, i) => `sim-phone-${hosts.length + i + 1}`);
        if (hosts.length + count > opts.phones)
          throw new Error(`the simulator has ${opts.phones} phones; ${hosts.length} already have a host`);
        const devices = await provisionSimDevices(adminDbFile, serials);
        const started = await Promise.all(
          devices.map(async (d) => {
            const dataDir = path.join(opts.root, `host-${d.serial}`);
            const child = await startChild({
              name: `device-${d.serial}`,
              command: process.execPath,
              args: tsEntry('device-worker/main.ts', [
                '--device-id',
                d.deviceId,
                '--serial',
                d.serial,
                '--adb-host',
                '127.0.0.1',
                '--adb-port',
                adbPort,
                '--admin-url',
                adminUrl,
                '--data-dir',
                dataDir,
              ]),
              env: { ...temporalEnv, CMAUTOBUY_DEVICE_TOKEN: d.token },
              readyLine: /DEVICE WORKER READY/,
              logFile: path.join(logs, `device-${d.serial}.out`),
            });
            children.push(child);
            return {
              deviceId: d.deviceId,
              serial: d.serial,
              dataDir,
              ledgerFile: dataPaths(dataDir).device(d.deviceId).ledgerDb,
              process: child,
            };
          }),
        );
        hosts.push(...started);
        return started;
      },
      pids: () => children.map((c) => c.process.pid!),
      close: closeAll,
    };
  } catch (err) {
    await closeAll();
    throw err;
  }
}

/**
 * The admin process (`admin/main.ts --no-worker`: HTTP and its Temporal client) on a free
 * loopback port, on the given data dir; its worker is startAdminWorkerProcess. With
 * `CMAUTOBUY_BENCH_CPU_PROF=<dir>` it writes a V8 CPU profile there when it stops (open it in
 * Chrome DevTools' Performance panel): where the admin's time goes in a part.
 */
export function startAdminProcess(opts: {
  dataDir: string;
  logs: string;
  temporal: { address: string; namespace: string };
  workflowBundlePath: string;
  adminPassword: string;
}): Promise<RunningChild> {
  const profileDir = process.env.CMAUTOBUY_BENCH_CPU_PROF;
  return startChild({
    name: 'admin',
    command: process.execPath,
    args: [
      ...(profileDir ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(profileDir)] : []),
      ...tsEntry('admin/main.ts', inlineWorker() ? [] : ['--no-worker']),
    ],
    env: {
      CMAUTOBUY_TEMPORAL_ADDRESS: opts.temporal.address,
      CMAUTOBUY_TEMPORAL_NAMESPACE: opts.temporal.namespace,
      CMAUTOBUY_LOG_LEVEL: 'warn',
      CMAUTOBUY_DATA_DIR: opts.dataDir,
      CMAUTOBUY_ADMIN_HOST: '127.0.0.1',
      CMAUTOBUY_ADMIN_PORT: '0',
      CMAUTOBUY_ADMIN_PASSWORD: opts.adminPassword,
      CMAUTOBUY_WORKFLOW_BUNDLE: opts.workflowBundlePath,
      CMAUTOBUY_TEMPORAL_PAYLOAD_KEYS: process.env.CMAUTOBUY_TEMPORAL_PAYLOAD_KEYS,
    },
    readyLine: /ADMIN READY (\S+)/,
    logFile: path.join(opts.logs, 'admin.out'),
  });
}

/** The admin's Temporal worker (admin/temporal/worker-main.ts) on the admin's data dir. */
export function startAdminWorkerProcess(opts: {
  dataDir: string;
  logs: string;
  temporal: { address: string; namespace: string };
  workflowBundlePath: string;
}): Promise<RunningChild> {
  const profileDir = process.env.CMAUTOBUY_BENCH_CPU_PROF;
  return startChild({
    name: 'admin-worker',
    command: process.execPath,
    args: [
      ...(profileDir ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(profileDir)] : []),
      ...tsEntry('admin/temporal/worker-main.ts'),
    ],
    env: {
      CMAUTOBUY_TEMPORAL_ADDRESS: opts.temporal.address,
      CMAUTOBUY_TEMPORAL_NAMESPACE: opts.temporal.namespace,
      CMAUTOBUY_LOG_LEVEL: 'warn',
      CMAUTOBUY_DATA_DIR: opts.dataDir,
      CMAUTOBUY_WORKFLOW_BUNDLE: opts.workflowBundlePath,
      CMAUTOBUY_TEMPORAL_PAYLOAD_KEYS: process.env.CMAUTOBUY_TEMPORAL_PAYLOAD_KEYS,
    },
    readyLine: /ADMIN WORKER READY/,
    logFile: path.join(opts.logs, 'admin-worker.out'),
  });
}

/** Operator `admin`, logged in. */
export async function operator(adminUrl: string, password: string): Promise<OperatorClient> {
  const op = new OperatorClient(adminUrl);
  const login = await op.login('admin', password);
  if (login.status !== 200) throw new Error(`operator login failed: ${login.status} ${JSON.stringify(login.body)}`);
  return op;
}

const BENCH_GOODS = {
  goodsId: '937122477375',
  options: { 颜色分类: '黑色', 尺码: 'M' },
  quantity: 1,
  capCent: 100_000,
};

/** Drafts `count` dry-run purchases and returns them ready for `POST /api/tasks/start`. */
export async function draftDryRuns(
  op: OperatorClient,
  count: number,
): Promise<Array<{ task_id: string; version: number }>> {
  const out: Array<{ task_id: string; version: number }> = [];
  for (let i = 0; i < count; i++) {
    const res = await op.post('/api/tasks', {
      type: 'purchase',
      pdd_goods_url: `https://mobile.yangkeduo.com/goods.html?goods_id=${BENCH_GOODS.goodsId}`,
      pdd_options: BENCH_GOODS.options,
      quantity: BENCH_GOODS.quantity,
      max_total_price_cent: BENCH_GOODS.capCent,
      execution_mode: 'dry_run',
    });
    if (res.status !== 201) throw new Error(`draft: ${res.status} ${JSON.stringify(res.body)}`);
    const { task_id, version } = res.body as { task_id: string; version: number };
    out.push({ task_id, version });
  }
  return out;
}

/** `POST /api/tasks/start` in batches of the API's limit (500). */
export async function startTasks(
  op: OperatorClient,
  tasks: Array<{ task_id: string; version: number }>,
): Promise<void> {
  for (let i = 0; i < tasks.length; i += 500) {
    const res = await op.post('/api/tasks/start', { tasks: tasks.slice(i, i + 500) });
    if (res.status !== 200) throw new Error(`start: ${res.status} ${JSON.stringify(res.body)}`);
  }
}

/**
 * Waits until every task is in a terminal state, reading the admin DB file (read-only, WAL) so
 * the wait puts no load on the API being measured. Returns the status of each task.
 */
export async function waitForTerminal(
  adminDbFile: string,
  taskIds: readonly string[],
  timeoutMs: number,
): Promise<Map<string, string>> {
  const db = new Database(adminDbFile, { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  try {
    const deadline = Date.now() + timeoutMs;
    const query = db.prepare('SELECT task_id, status FROM tasks WHERE task_id = ?');
    for (;;) {
      const statuses = new Map(
        taskIds.map((id) => [id, (query.get(id) as { status: string } | undefined)?.status ?? 'MISSING']),
      );
      const open = [...statuses.values()].filter((s) => !isTerminal(s as PurchaseStatus) && s !== 'NEEDS_MANUAL');
      if (open.length === 0) return statuses;
      if (Date.now() > deadline)
        throw new Error(
          `${open.length} of ${taskIds.length} tasks still open after ${timeoutMs} ms: ${[...new Set(open)].join(', ')}`,
        );
      await new Promise((r) => setTimeout(r, 200));
    }
  } finally {
    db.close();
  }
}

export interface WorkflowTimes {
  workflowId: string;
  startMs: number;
  closeMs: number;
  /** time spent inside activities on the `devices` and `device/<id>` queues (started → closed) */
  deviceMs: number;
  /** the device worker that took the claim (its identity), and when the claim started and the release closed */
  phone: string;
  claimStartedMs: number;
  releasedMs: number;
  /**
   * While the phone was held (claim started → release closed): time from a workflow task being
   * scheduled to its completion (the admin worker's turn), and from an admin activity being
   * scheduled to its completion — the non-device part of the phone's time.
   */
  heldWorkflowTaskMs: number;
  heldAdminActivityMs: number;
}

/** Reads each purchase's workflow history: when it started and closed, and its time on a phone. */
export async function workflowTimes(
  temporal: { address: string; namespace: string },
  adminDbFile: string,
  taskIds: readonly string[],
): Promise<WorkflowTimes[]> {
  const db = new Database(adminDbFile, { readonly: true, fileMustExist: true });
  const ids = taskIds.map(
    (id) =>
      (
        db
          .prepare('SELECT workflow_id FROM order_authorizations WHERE task_id = ? ORDER BY task_version DESC LIMIT 1')
          .get(id) as { workflow_id: string }
      ).workflow_id,
  );
  db.close();
  const connection = await Connection.connect({ address: temporal.address });
  try {
    const client = new Client({ dataConverter: temporalDataConverter(), connection, namespace: temporal.namespace });
    const ms = (t: { seconds?: { toNumber(): number } | number | null; nanos?: number | null } | null | undefined) =>
      t
        ? Number(typeof t.seconds === 'number' ? t.seconds : (t.seconds?.toNumber() ?? 0)) * 1000 + (t.nanos ?? 0) / 1e6
        : 0;
    const out: WorkflowTimes[] = [];
    for (const workflowId of ids) {
      // the task turns terminal before the workflow's last steps (the phone's release): wait for the close
      await client.workflow.getHandle(workflowId).result();
      const history = await client.workflow.getHandle(workflowId).fetchHistory();
      const events = history.events ?? [];
      const queueOf = new Map<number, string>();
      const typeOf = new Map<number, string>();
      const scheduledAt = new Map<number, number>();
      const startedAt = new Map<number, number>();
      let deviceMs = 0;
      let phone = '';
      let claimStartedMs = 0;
      let releasedMs = 0;
      let heldWorkflowTaskMs = 0;
      let heldAdminActivityMs = 0;
      const holding = (t: number) => claimStartedMs > 0 && releasedMs === 0 && t >= claimStartedMs;
      for (const e of events) {
        const id = Number(e.eventId);
        const at = ms(e.eventTime);
        if (e.workflowTaskScheduledEventAttributes) scheduledAt.set(id, at);
        if (e.workflowTaskCompletedEventAttributes) {
          const scheduled = scheduledAt.get(Number(e.workflowTaskCompletedEventAttributes.scheduledEventId)) ?? at;
          if (holding(scheduled)) heldWorkflowTaskMs += at - scheduled;
        }
        if (e.activityTaskScheduledEventAttributes) {
          queueOf.set(id, e.activityTaskScheduledEventAttributes.taskQueue?.name ?? '');
          typeOf.set(id, e.activityTaskScheduledEventAttributes.activityType?.name ?? '');
          scheduledAt.set(id, at);
        }
        const started = e.activityTaskStartedEventAttributes;
        if (started) {
          startedAt.set(Number(started.scheduledEventId), at);
          if (typeOf.get(Number(started.scheduledEventId)) === 'claimDevice') {
            claimStartedMs = at;
            phone = started.identity ?? '';
          }
        }
        const closed =
          e.activityTaskCompletedEventAttributes ??
          e.activityTaskFailedEventAttributes ??
          e.activityTaskTimedOutEventAttributes ??
          e.activityTaskCanceledEventAttributes;
        if (closed) {
          const scheduled = Number(closed.scheduledEventId);
          const queue = queueOf.get(scheduled) ?? '';
          const began = startedAt.get(scheduled);
          if (began !== undefined && (queue === DEVICES_TASK_QUEUE || queue.startsWith('device/')))
            deviceMs += at - began;
          if (queue === ADMIN_TASK_QUEUE && holding(scheduledAt.get(scheduled) ?? 0))
            heldAdminActivityMs += at - (scheduledAt.get(scheduled) ?? at);
          if (typeOf.get(scheduled) === 'releaseDevice' && e.activityTaskCompletedEventAttributes) releasedMs = at;
        }
      }
      out.push({
        workflowId,
        startMs: ms(events[0]?.eventTime),
        closeMs: ms(events.at(-1)?.eventTime),
        deviceMs,
        phone,
        claimStartedMs,
        releasedMs,
        heldWorkflowTaskMs,
        heldAdminActivityMs,
      });
    }
    return out;
  } finally {
    await connection.close();
  }
}

/** Per phone, the time from one release closing to the next claim starting on it: the hand-over. */
export function handOverGaps(times: readonly WorkflowTimes[]): number[] {
  const byPhone = new Map<string, WorkflowTimes[]>();
  for (const t of times) if (t.phone) byPhone.set(t.phone, [...(byPhone.get(t.phone) ?? []), t]);
  const gaps: number[] = [];
  for (const list of byPhone.values()) {
    list.sort((a, b) => a.claimStartedMs - b.claimStartedMs);
    for (let i = 1; i < list.length; i++)
      if (list[i - 1]!.releasedMs > 0) gaps.push(list[i]!.claimStartedMs - list[i - 1]!.releasedMs);
  }
  return gaps;
}

/** CPU time (user + system) a process has used so far, in ms; Linux only (/proc). */
export function cpuMs(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime, fields 14 and 15 of stat(5), in clock ticks of 10 ms
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** The claims a phone host's ledger recorded, oldest first. */
export function ledgerClaims(
  ledgerFile: string,
): Array<{ workflow_id: string; claimed_at: string; released_at: string | null }> {
  if (!fs.existsSync(ledgerFile)) return [];
  const db = new Database(ledgerFile, { readonly: true });
  try {
    return db
      .prepare('SELECT workflow_id, claimed_at, released_at FROM claims ORDER BY claimed_at, rowid')
      .all() as Array<{ workflow_id: string; claimed_at: string; released_at: string | null }>;
  } finally {
    db.close();
  }
}
