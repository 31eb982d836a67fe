import type { AddressInfo } from 'node:net';
import http from 'node:http';
import path from 'node:path';
import type { Logger } from './config/logger';
import { openMigratedAdminDb, type AdminDb } from './db/database';
import { createApp } from './http/app';
import { TemporalGateway, type TemporalSettings } from './temporal/gateway';
import { runAdminWorker, type AdminWorkerHandle } from './temporal/worker';
import { dataPaths } from './config/env';

export interface AdminOptions {
  dataDir: string;
  host: string;
  port: number;
  temporal: TemporalSettings;
  log: Logger;
  uiDist?: string;
  workflowBundlePath?: string;
  /** tests that only exercise HTTP can skip the worker */
  runWorker?: boolean;
}

export interface AdminHandle {
  url: string;
  port: number;
  db: AdminDb;
  temporal: TemporalGateway;
  worker: AdminWorkerHandle | undefined;
  close(): Promise<void>;
}

export const DEFAULT_UI_DIST = path.resolve(__dirname, '../ui/dist');

/** Everything the admin process runs, in one place, so `main.ts` and the tests start it the same way. */
export async function startAdmin(opts: AdminOptions): Promise<AdminHandle> {
  const paths = dataPaths(opts.dataDir);
  const db = await openMigratedAdminDb(paths.adminDb);
  const temporal = new TemporalGateway(opts.temporal, opts.log);
  const app = createApp({ db, temporal, log: opts.log, uiDist: opts.uiDist ?? DEFAULT_UI_DIST });
  const server = http.createServer(app.callback());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const worker =
    opts.runWorker === false
      ? undefined
      : runAdminWorker({ temporal: opts.temporal, db, log: opts.log, workflowBundlePath: opts.workflowBundlePath });

  return {
    url: `http://${opts.host}:${port}`,
    port,
    db,
    temporal,
    worker,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await worker?.stop();
      await temporal.close();
      await db.destroy();
    },
  };
}
