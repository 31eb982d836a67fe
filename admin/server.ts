import type net from 'node:net';
import type { AddressInfo } from 'node:net';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import type { Logger } from '../platform/logger';
import { openAdminReads, openMigratedAdminDb, type AdminDb } from './db/database';
import { createApp } from './http/app';
import type { AppDeps } from './http/deps';
import { TemporalGateway, type TemporalSettings } from './temporal/gateway';
import { runPurchaseSweep } from './purchase/sweep';
import { catchUpWithTemporal } from './purchase/catch-up';
import { dataPaths } from '../platform/data-dir';
import { assertAdminListenIsSafe, type AdminTls } from './config/tls';
import { createSecurity, type Security, type SecurityOptions } from './auth/security';
import { ensureInitialAdmin } from './auth/users';
import { SybService, type SybDefaults } from './syb/account';
import { keepSybSchedule } from './syb/schedule';
import { clearStaleSyncFlag } from './syb/sync';
import { stopPngDecoders } from './evidence/png-decoder';
import { HostChannels } from './hosts/channel';
import { PhoneScreens } from './hosts/phone-screen';
import { AdminSockets } from './http/sockets';
import { sweepStaleHolds } from './devices/holds';
import { ScreenNodeReads } from './devices/screen-nodes';
import { describeError } from '../platform/errors';

export interface AdminOptions {
  dataDir: string;
  host: string;
  port: number;
  temporal: TemporalSettings;
  log: Logger;
  uiDist?: string;
  workflowBundlePath?: string;
  /** tests that only exercise HTTP can skip the worker (and the sweep and the SYB Schedule with it) */
  runWorker?: boolean;
  /**
   * false: the admin worker runs in a process of its own (workers/main-admin-worker.ts, as
   * `npm start` runs it) and this one keeps its Temporal client only; default true (tests).
   */
  inlineWorker?: boolean;
  /**
   * Starts the admin worker this process hosts (runWorker and inlineWorker allowing). The admin
   * does not know the activities a worker registers: whoever composes the process hands it in
   * (workers/admin.ts's `startAdmin` passes `runAdminWorker`).
   */
  worker?: AdminWorkerStarter;
  /** how often the purchase sweep looks for authorised tasks without a workflow (default 30 s) */
  purchaseSweepIntervalMs?: number;
  /** how long a holder's closed live page waits for a new one before its hold ends (default 10 s) */
  pageClosedGraceMs?: number;
  /** HTTPS with this certificate; without it the admin only listens on loopback (admin/config/tls.ts) */
  tls?: AdminTls;
  /** CMAUTOBUY_ADMIN_ALLOW_PLAINTEXT: a TLS proxy fronts a non-loopback plain listener */
  allowPlaintextNonLoopback?: boolean;
  /** CMAUTOBUY_ADMIN_PASSWORD; without it the first start generates one and announces it once */
  initialAdminPassword?: string;
  /** where a generated first-start password is shown; defaults to the terminal, never the logger */
  announce?: (line: string) => void;
  security?: SecurityOptions;
  /** the SYB account's env defaults (CMAUTOBUY_SYB_URL, _USERNAME, _PASSWORD) */
  syb?: SybDefaults;
  /** open connections one client address may hold (default 100; not applied behind a trusted proxy) */
  maxConnectionsPerAddress?: number;
}

/** What the admin hands the worker it hosts: the one writer of the admin DB shares its DB and SYB service. */
export interface AdminWorkerDeps {
  temporal: TemporalSettings;
  db: AdminDb;
  syb: SybService;
  log: Logger;
  /** a bundle built elsewhere (CMAUTOBUY_WORKFLOW_BUNDLE); otherwise dist/workflow-bundle.js — never built here */
  workflowBundlePath?: string;
}

export interface AdminWorkerHandle {
  /** resolves when the first worker is polling */
  ready: Promise<void>;
  stop(): Promise<void>;
}

type AdminWorkerStarter = (deps: AdminWorkerDeps) => AdminWorkerHandle;

export interface AdminHandle {
  url: string;
  port: number;
  db: AdminDb;
  temporal: TemporalGateway;
  worker: AdminWorkerHandle | undefined;
  security: Security;
  syb: SybService;
  /** the phones' live screens (admin/http/sockets.ts) */
  live: AppDeps['live'];
  /** resolves once the Schedule `syb-sync` is in place; undefined with runWorker false */
  sybScheduleReady: Promise<void> | undefined;
  close(): Promise<void>;
}

const UI_DIST = path.resolve(__dirname, '../ui/dist');

/**
 * A client that trickles its request cannot hold a connection (docs/security.md "Slow
 * clients"): the head must arrive within 10 s and the whole request, body included, within 30 s
 * (the largest upload, 25 MB, needs under 7 Mbit/s), else Node answers 408 and closes. Node
 * checks every `connectionsCheckingInterval`, so a cut comes within a second of the limit.
 */
const HTTP_LIMITS = {
  headersTimeout: 10_000,
  requestTimeout: 30_000,
  connectionsCheckingInterval: 1_000,
} as const;

/**
 * At most `cap` open connections per client address; one more is closed at once, before a
 * byte of it is read. Behind a trusted proxy every connection is the proxy's, so the cap is
 * the proxy's job there.
 */
function capConnectionsPerAddress(server: net.Server, cap: number): void {
  const open = new Map<string, number>();
  server.on('connection', (socket: net.Socket) => {
    const address = socket.remoteAddress ?? '';
    const count = (open.get(address) ?? 0) + 1;
    if (count > cap) {
      socket.destroy();
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}

/**
 * Everything the admin process runs, in one place, so workers/main-admin.ts and the tests start it
 * the same way (both through workers/admin.ts, which hands in the worker).
 */
export async function startAdmin(opts: AdminOptions): Promise<AdminHandle> {
  const workerHere = opts.runWorker !== false && opts.inlineWorker !== false;
  const startWorker = opts.worker;
  if (workerHere && !startWorker)
    throw new Error(
      'startAdmin: no admin worker to run inline; pass `worker` (workers/admin.ts) or inlineWorker: false',
    );
  assertAdminListenIsSafe({
    host: opts.host,
    tls: opts.tls,
    allowPlaintextNonLoopback: opts.allowPlaintextNonLoopback ?? false,
  });
  const paths = dataPaths(opts.dataDir);
  const db = await openMigratedAdminDb(paths.adminDb);
  await ensureInitialAdmin(db, { password: opts.initialAdminPassword, announce: opts.announce ?? announceOnTerminal });
  const temporal = new TemporalGateway(opts.temporal, opts.log);
  const reads = openAdminReads(paths.adminDb, db);
  const security = createSecurity(db, paths.evidence, opts.security, reads);
  const syb = new SybService(db, opts.syb, opts.log);
  // a password sealed under an older payload key is sealed again; the answer parser's thread
  // starts with the admin, not inside the first sync (admin/syb/answer-parser.ts)
  await syb.start();
  // the process whose worker runs the syncs clears what a killed one left (admin/syb/sync.ts)
  if (workerHere) await clearStaleSyncFlag(db);
  // a restored database catches up with Temporal before a request or an activity reads it
  if (opts.runWorker !== false) await catchUpWithTemporal({ db, temporal, log: opts.log, dbFile: paths.adminDb });
  const { live, sockets, stopHoldSweep } = startLiveScreens(db, security, opts.log, opts.pageClosedGraceMs);
  const app = createApp({ db, reads, temporal, log: opts.log, uiDist: opts.uiDist ?? UI_DIST, security, syb, live });
  const server = opts.tls
    ? https.createServer({ cert: opts.tls.cert, key: opts.tls.key, ...HTTP_LIMITS }, app.callback())
    : http.createServer(HTTP_LIMITS, app.callback());
  if (!security.trustProxy) capConnectionsPerAddress(server, opts.maxConnectionsPerAddress ?? 100);
  sockets.listen(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const worker =
    workerHere && startWorker
      ? startWorker({
          temporal: opts.temporal,
          db,
          syb,
          log: opts.log,
          workflowBundlePath: opts.workflowBundlePath,
        })
      : undefined;
  // Authorised purchases whose workflow did not start (Temporal down at the time) start here.
  const sweep =
    opts.runWorker === false
      ? undefined
      : runPurchaseSweep({ db, temporal, log: opts.log }, opts.purchaseSweepIntervalMs);
  const sybSchedule = opts.runWorker === false ? undefined : keepSybSchedule(temporal, syb, opts.log);

  return {
    url: `${opts.tls ? 'https' : 'http'}://${opts.host}:${port}`,
    port,
    db,
    temporal,
    worker,
    security,
    syb,
    live,
    sybScheduleReady: sybSchedule?.ready,
    async close() {
      stopHoldSweep();
      sockets.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      sweep?.stop();
      sybSchedule?.stop();
      await worker?.stop();
      await syb.close();
      await temporal.close();
      await stopPngDecoders();
      if (reads !== db) await reads.destroy();
      await db.destroy();
    },
  };
}

/**
 * The generated first-start password goes straight to the operator's terminal when there is
 * one, so a supervisor that copies stdout into data/logs never sees it; stdout otherwise.
 */
function announceOnTerminal(line: string): void {
  try {
    const fd = fs.openSync('/dev/tty', 'w');
    try {
      fs.writeSync(fd, `${line}\n`);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    console.log(line);
  }
}

/** The phones' live screens: hosts' channels in, browsers' streams out (admin/http/sockets.ts), and the sweep of stale holds. */
function startLiveScreens(
  db: AdminDb,
  security: Security,
  log: Logger,
  pageClosedGraceMs?: number,
): { live: AppDeps['live']; sockets: AdminSockets; stopHoldSweep: () => void } {
  const channels = new HostChannels(log);
  const screens = new PhoneScreens(db, channels);
  const sockets = new AdminSockets({
    db,
    sessions: security.sessions,
    allowedHosts: security.allowedHosts,
    channels,
    screens,
    log,
    pageClosedGraceMs,
  });
  const stopHoldSweep = sweepStaleHolds(db, (err) =>
    log.warn({ err: describeError(err) }, 'could not release stale phone holds'),
  );
  const live = {
    channels,
    screens,
    closeSession: (id: Buffer) => sockets.closeSession(id),
    screenNodes: new ScreenNodeReads(),
  };
  return { live, sockets, stopHoldSweep };
}
