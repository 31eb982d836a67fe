import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { dataPaths } from '../platform/data-dir';
import { startChild, stopChild, type RunningChild } from '../platform/children';
import { provisionSimDevices } from '../scripts/supervise/sim-devices';
import type { OperatorClient } from '../test/harness';
import { inlineWorker, operator, startAdminProcess, startAdminWorkerProcess, tsEntry } from './stack-processes';

/**
 * The whole system as separate processes, the way a deployment with many phone hosts runs it:
 * one admin process, one phone simulator process, and per phone a device worker process with its
 * own data dir and its own device token (so nothing is shared between phone hosts but Temporal
 * and the admin's HTTP API). The Temporal server is the caller's: the bench starts its own, the
 * test uses the run's shared one. Children are started with `npm start`'s own helper
 * (bench/stack-processes.ts); a batch of purchases on it is bench/purchases.ts.
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

/** What every child is given to reach Temporal (and the run's payload key, a secret, handed by name). */
const temporalEnvOf = (temporal: StackOptions['temporal']) => ({
  CMAUTOBUY_TEMPORAL_ADDRESS: temporal.address,
  CMAUTOBUY_TEMPORAL_NAMESPACE: temporal.namespace,
  CMAUTOBUY_LOG_LEVEL: 'warn',
  // the run's payload key (test/harness.ts made it)
  CMAUTOBUY_TEMPORAL_PAYLOAD_KEYS: process.env.CMAUTOBUY_TEMPORAL_PAYLOAD_KEYS,
});

export async function startStack(opts: StackOptions): Promise<Stack> {
  const adminDir = path.join(opts.root, 'admin');
  const logs = path.join(opts.root, 'logs');
  const children: RunningChild[] = [];
  const closeAll = async () => {
    for (const c of [...children].reverse()) await stopChild(c);
  };
  try {
    const sim = await startChild({
      name: 'sim',
      background: true,
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
    const admin = await startAdminProcess({ ...opts, dataDir: adminDir, logs });
    children.push(admin);
    // as `npm start` runs it: the admin's Temporal worker in a process of its own
    // (CMAUTOBUY_BENCH_INLINE_WORKER=1: inside the admin process, to compare the two)
    const adminWorker = inlineWorker() ? admin : await startAdminWorkerProcess({ ...opts, dataDir: adminDir, logs });
    if (adminWorker !== admin) children.push(adminWorker);
    const adminUrl = admin.readyMatch[1]!;
    const adminDbFile = dataPaths(adminDir).adminDb;
    const hosts: PhoneHost[] = [];
    const phoneHosts = { ...opts, adminUrl, adminDbFile, adbPort: sim.readyMatch[1]!, logs, children, hosts };
    return {
      adminUrl,
      adminPid: admin.process.pid!,
      adminWorkerPid: adminWorker.process.pid!,
      adminDbFile,
      simControlUrl: `http://127.0.0.1:${sim.readyMatch[2]!}`,
      op: await operator(adminUrl, opts.adminPassword),
      hosts,
      addPhoneHosts: (count) => addPhoneHosts(phoneHosts, count),
      pids: () => children.map((c) => c.process.pid!),
      close: closeAll,
    };
  } catch (err) {
    await closeAll();
    throw err;
  }
}

/**
 * Device workers for the next `count` phones of the simulator, all at once: each a phone host
 * of its own (data dir, device token), provisioned as `npm start` provisions the simulator's.
 */
async function addPhoneHosts(
  s: StackOptions & {
    adminUrl: string;
    adminDbFile: string;
    adbPort: string;
    logs: string;
    children: RunningChild[];
    hosts: PhoneHost[];
  },
  count: number,
): Promise<PhoneHost[]> {
  const serials = Array.from({ length: count }, (_, i) => `sim-phone-${s.hosts.length + i + 1}`);
  if (s.hosts.length + count > s.phones)
    throw new Error(`the simulator has ${s.phones} phones; ${s.hosts.length} already have a host`);
  const devices = await provisionSimDevices(s.adminDbFile, serials);
  const started = await Promise.all(
    devices.map(async (d) => {
      const dataDir = path.join(s.root, `host-${d.serial}`);
      const child = await startChild({
        name: `device-${d.serial}`,
        background: true,
        command: process.execPath,
        args: tsEntry('workers/main-device-worker.ts', [
          ...['--device-id', d.deviceId, '--serial', d.serial],
          ...['--adb-host', '127.0.0.1', '--adb-port', s.adbPort],
          ...['--admin-url', s.adminUrl, '--data-dir', dataDir],
        ]),
        env: { ...temporalEnvOf(s.temporal), CMAUTOBUY_DEVICE_TOKEN: d.token },
        readyLine: /DEVICE WORKER READY/,
        logFile: path.join(s.logs, `device-${d.serial}.out`),
      });
      s.children.push(child);
      const ledgerFile = dataPaths(dataDir).device(d.deviceId).ledgerDb;
      return { deviceId: d.deviceId, serial: d.serial, dataDir, ledgerFile, process: child };
    }),
  );
  s.hosts.push(...started);
  return started;
}

/** CPU time (user + system) a process has used so far, in ms; Linux only (/proc). */
export function cpuMs(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime, fields 14 and 15 of stat(5), in clock ticks of 10 ms
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** CPU time (user + system) these processes have used so far together, in ms. */
export function cpuMsOf(pids: readonly number[]): number {
  return pids.reduce((sum, pid) => sum + cpuMs(pid), 0);
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
