import { chaosRegister } from '../platform/chaos';
import { ConfigError } from '../platform/config';
import { describeError } from '../platform/errors';
import { serveMetrics } from '../platform/metrics';
import { flushTracing } from '../temporal/tracing';
import { openMigratedAdminDb } from '../admin/db/database';
import { adminMetricsRegistry } from '../admin/metrics/metrics';
import { SybService } from '../admin/syb/account';
import { runAdminWorker } from './admin';
import { loadWorkflowBundle, MissingWorkflowBundle } from './workflow-bundle';
import { setUpAdminProcess } from '../admin/process-setup';
import { clearStaleSyncFlag } from '../admin/syb/sync';

/**
 * `npm run admin-worker`: the `admin` queue worker (workflow tasks and the admin activities) in
 * a process of its own, so a batch's workflow tasks, SQLite writes and payload encryption never
 * queue behind — or in front of — an operator's request on the admin's event loop
 * (docs/architecture.md). Same environment as the admin (data dir, payload keys, Temporal,
 * SYB account); the account set on 设置 reaches it through the admin DB, its password sealed
 * with the payload key (admin/syb/account-secret.ts). It writes the admin DB beside the admin
 * through SQLite's write lock (admin/db/database.ts `writeTransaction`). `--metrics-port N` serves the purchase metrics its
 * activities record (docs/operations.md "Metrics").
 */
async function main(): Promise<void> {
  const { env, paths, log, temporal } = setUpAdminProcess('admin-worker');
  chaosRegister('admin-worker');
  const workflowBundle = loadWorkflowBundle(process.env.CMAUTOBUY_WORKFLOW_BUNDLE);
  const db = await openMigratedAdminDb(paths.adminDb);
  const syb = new SybService(
    db,
    { url: env.CMAUTOBUY_SYB_URL, username: env.CMAUTOBUY_SYB_USERNAME, password: env.CMAUTOBUY_SYB_PASSWORD },
    log,
  );
  // the account set on 设置 is read from the admin DB at each sync (admin/syb/account-secret.ts)
  await syb.start();
  await clearStaleSyncFlag(db);
  const metricsPort = flagValue('--metrics-port');
  const metrics =
    metricsPort === undefined
      ? undefined
      : await serveMetrics({
          registry: adminMetricsRegistry,
          host: env.CMAUTOBUY_METRICS_HOST,
          port: metricsPort,
          log,
        });
  const worker = runAdminWorker({ temporal, db, syb, log, workflowBundlePath: workflowBundle.codePath });
  await worker.ready;
  console.log(`ADMIN WORKER READY build=${workflowBundle.buildId}`);

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'admin worker stopping');
    (async () => {
      await worker.stop();
      await metrics?.close();
      await syb.close();
      await db.destroy();
      await flushTracing();
    })().then(
      () => process.exit(0),
      (err: unknown) => {
        log.error({ err: describeError(err) }, 'admin worker did not stop cleanly');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

function flagValue(name: string): number | undefined {
  const i = process.argv.indexOf(name);
  if (i < 0) return undefined;
  const port = Number(process.argv[i + 1]);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError(`${name} needs a port number`);
  return port;
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError || err instanceof MissingWorkflowBundle) console.error(err.message);
  else console.error('admin worker failed to start:', describeError(err));
  process.exit(1);
});
