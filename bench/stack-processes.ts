import path from 'node:path';
import { startChild, type RunningChild } from '../platform/children';
import { PROJECT_ROOT } from '../temporal/binaries';
import { OperatorClient } from '../test/harness';

/**
 * The admin's two processes as the benches start them (bench/stack.ts, bench/tasks-list.ts,
 * bench/import.ts), each with `npm start`'s own child helper, and the operator who logs in.
 */

/** CMAUTOBUY_BENCH_INLINE_WORKER=1: the admin's worker inside the admin process, to compare the two */
export const inlineWorker = () => process.env.CMAUTOBUY_BENCH_INLINE_WORKER === '1';
export const tsEntry = (entry: string, args: string[] = []) => [
  '--import',
  'tsx',
  path.join(PROJECT_ROOT, entry),
  ...args,
];

/**
 * The admin process (`workers/main-admin.ts --no-worker`: HTTP and its Temporal client) on a free
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
  /** more environment, e.g. a 顺运宝 account (bench/responsiveness.ts) */
  env?: Record<string, string>;
}): Promise<RunningChild> {
  const profileDir = process.env.CMAUTOBUY_BENCH_CPU_PROF;
  return startChild({
    name: 'admin',
    answersOperators: true, // as under npm start (scripts/supervise/child-specs.ts)
    command: process.execPath,
    args: [
      ...(profileDir ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(profileDir)] : []),
      ...tsEntry('workers/main-admin.ts', inlineWorker() ? [] : ['--no-worker']),
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
      ...opts.env,
    },
    readyLine: /ADMIN READY (\S+)/,
    logFile: path.join(opts.logs, 'admin.out'),
  });
}

/** The admin's Temporal worker (workers/main-admin-worker.ts) on the admin's data dir. */
export function startAdminWorkerProcess(opts: {
  dataDir: string;
  logs: string;
  temporal: { address: string; namespace: string };
  workflowBundlePath: string;
  env?: Record<string, string>;
}): Promise<RunningChild> {
  const profileDir = process.env.CMAUTOBUY_BENCH_CPU_PROF;
  return startChild({
    name: 'admin-worker',
    background: true, // as under npm start (scripts/supervise/child-specs.ts)
    command: process.execPath,
    args: [
      ...(profileDir ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(profileDir)] : []),
      ...tsEntry('workers/main-admin-worker.ts'),
    ],
    env: {
      CMAUTOBUY_TEMPORAL_ADDRESS: opts.temporal.address,
      CMAUTOBUY_TEMPORAL_NAMESPACE: opts.temporal.namespace,
      CMAUTOBUY_LOG_LEVEL: 'warn',
      CMAUTOBUY_DATA_DIR: opts.dataDir,
      CMAUTOBUY_WORKFLOW_BUNDLE: opts.workflowBundlePath,
      CMAUTOBUY_TEMPORAL_PAYLOAD_KEYS: process.env.CMAUTOBUY_TEMPORAL_PAYLOAD_KEYS,
      ...opts.env,
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
