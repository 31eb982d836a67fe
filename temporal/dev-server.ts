import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { ensureBinary, TEMPORAL_CLI } from './binaries';
import { DEFAULT_RETENTION_DAYS, setRetentionDays } from './namespace';
import { searchAttributeArgs } from './search-attributes';

export interface DevServerOptions {
  dbFile: string;
  namespace: string;
  /** more namespaces to create at start (tests give each test file its own) */
  extraNamespaces?: string[];
  port: number;
  /** null = headless (tests); otherwise the Web UI port */
  uiPort: number | null;
  logFile?: string;
  say?: (line: string) => void;
  /** how long to wait for gRPC to answer */
  readyTimeoutMs?: number;
  /** retention of every namespace it creates (CMAUTOBUY_TEMPORAL_RETENTION_DAYS); default 30 */
  retentionDays?: number;
  /**
   * The path the Web UI is served under (`--ui-public-path`): the admin serves the embedded UI
   * at the same path on its own origin (admin/http/temporal-ui-proxy.ts). Default `/`.
   */
  uiPublicPath?: string;
}

export interface DevServer {
  address: string;
  namespace: string;
  /** the Web UI with its public path, e.g. `http://127.0.0.1:8233/temporal` */
  uiUrl: string | null;
  pid: number;
  /** resolves with how the process ended (`SIGKILL`, `code 1`), whoever ended it */
  exited: Promise<string>;
  stop(): Promise<void>;
}

/**
 * Starts `temporal server start-dev` on a SQLite file, so workflow history survives a
 * restart of the server (the reliability test relies on exactly that).
 */
export async function startDevServer(opts: DevServerOptions): Promise<DevServer> {
  const cli = ensureBinary(TEMPORAL_CLI, opts.say);
  fs.mkdirSync(path.dirname(opts.dbFile), { recursive: true });
  const namespaces = [opts.namespace, ...(opts.extraNamespaces ?? [])];
  const args = [
    'server',
    'start-dev',
    '--ip',
    '127.0.0.1',
    '--port',
    String(opts.port),
    '--db-filename',
    opts.dbFile,
    ...namespaces.flatMap((ns) => ['--namespace', ns]),
    // One partition per task queue: the claim queue then hands a free phone the waiting claim of
    // the highest priority, then the oldest (docs/architecture.md §3); with several partitions a
    // poller sees only its partition's backlog. One machine has no use for more.
    ...['matching.numTaskqueueReadPartitions=1', 'matching.numTaskqueueWritePartitions=1'].flatMap((v) => [
      '--dynamic-config-value',
      v,
    ]),
    '--log-level',
    'warn',
    // An admin activity a workflow task schedules goes back with that task's completion to the
    // worker that asked (the admin worker serves both), one matching round trip fewer while a
    // phone is held (docs/PERFORMANCE.md); a cluster sets the same key (docs/operations.md).
    '--dynamic-config-value',
    'system.enableActivityEagerExecution=true',
    ...searchAttributeArgs(),
    ...(opts.uiPort === null ? ['--headless'] : ['--ui-port', String(opts.uiPort), '--ui-ip', '127.0.0.1']),
    ...(opts.uiPort !== null && opts.uiPublicPath ? ['--ui-public-path', opts.uiPublicPath] : []),
  ];
  let out: number | 'ignore' = 'ignore';
  if (opts.logFile) {
    fs.mkdirSync(path.dirname(opts.logFile), { recursive: true });
    out = fs.openSync(opts.logFile, 'a');
  }
  const child: ChildProcess = spawn(cli, args, { stdio: ['ignore', out, out] });
  if (typeof out === 'number') fs.closeSync(out);

  let exited: string | undefined;
  const exitPromise = new Promise<string>((resolve) => {
    child.once('exit', (code, signal) => {
      exited = `exited with ${signal ?? code}`;
      resolve(signal ?? `code ${code}`);
    });
  });

  const address = `127.0.0.1:${opts.port}`;
  try {
    await waitForTemporal(address, opts.namespace, opts.readyTimeoutMs ?? 60_000, () => exited);
    // start-dev has no retention flag and creates its namespaces with a day's retention
    const connection = await Connection.connect({ address, connectTimeout: 5_000 });
    try {
      for (const ns of namespaces)
        await setRetentionDays(connection.workflowService, ns, opts.retentionDays ?? DEFAULT_RETENTION_DAYS);
    } finally {
      await connection.close();
    }
  } catch (err) {
    child.kill('SIGKILL');
    const logHint = opts.logFile ? ` (see ${opts.logFile})` : '';
    throw new Error(`Temporal dev server did not come up on ${address}${logHint}: ${(err as Error).message}`, {
      cause: err,
    });
  }

  return {
    address,
    namespace: opts.namespace,
    uiUrl:
      opts.uiPort === null ? null : `http://127.0.0.1:${opts.uiPort}${(opts.uiPublicPath ?? '').replace(/\/+$/, '')}`,
    pid: child.pid ?? -1,
    exited: exitPromise,
    async stop() {
      if (exited) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exitPromise;
      clearTimeout(timer);
    },
  };
}

/** Resolves once the namespace answers a describe call; fails early if the process died. */
export async function waitForTemporal(
  address: string,
  namespace: string,
  timeoutMs: number,
  died: () => string | undefined = () => undefined,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError = 'no answer yet';
  while (Date.now() < deadline) {
    const reason = died();
    if (reason) throw new Error(`the server process ${reason}`);
    try {
      const connection = await Connection.connect({ address, connectTimeout: 1_000 });
      try {
        await connection.workflowService.describeNamespace({ namespace });
        return;
      } finally {
        await connection.close();
      }
    } catch (err) {
      lastError = (err as Error).message;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`timed out after ${timeoutMs} ms: ${lastError}`);
}
