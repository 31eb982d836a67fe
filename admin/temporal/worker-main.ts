import { ConfigError } from '../../platform/config';
import { dataPaths } from '../../platform/data-dir';
import { describeError } from '../../platform/errors';
import { createLogger } from '../../platform/logger';
import { serveMetrics } from '../../platform/metrics';
import { installProcessGuard } from '../../platform/process-guard';
import { usePrivateUmask } from '../../platform/private-files';
import { installPayloadKeys } from '../../temporal/codec';
import { resolvePayloadKeys } from '../../temporal/codec/keys';
import { temporalConnection } from '../../temporal/connection';
import { installTemporalRuntime } from '../../temporal/runtime';
import { flushTracing, installTracing } from '../../temporal/tracing';
import { parseEnv } from '../config/env';
import { openMigratedAdminDb } from '../db/database';
import { adminMetricsRegistry } from '../metrics/metrics';
import { SybService } from '../syb/account';
import { runAdminWorker } from './worker';
import { loadWorkflowBundle, MissingWorkflowBundle } from './workflow-bundle';

/**
 * `npm run admin-worker`: the `admin` queue worker (workflow tasks and the admin activities) in
 * a process of its own, so a batch's workflow tasks, SQLite writes and payload encryption never
 * queue behind — or in front of — an operator's request on the admin's event loop
 * (docs/architecture.md). Same environment as the admin (data dir, payload keys, Temporal,
 * SYB account); it writes the admin DB beside the admin through SQLite's write lock
 * (admin/db/database.ts `writeTransaction`). `--metrics-port N` serves the purchase metrics its
 * activities record (docs/operations.md "Metrics").
 */
async function main(): Promise<void> {
  usePrivateUmask();
  const env = parseEnv();
  const paths = dataPaths(env.CMAUTOBUY_DATA_DIR);
  const log = createLogger({ name: 'admin-worker', level: env.CMAUTOBUY_LOG_LEVEL, logDir: paths.logs });
  // an activity's write is one SQLite transaction: a promise nobody awaited leaves nothing half-done
  installProcessGuard(log, { unhandledRejection: 'log' });
  installTemporalRuntime(log, {
    metrics: env.CMAUTOBUY_TEMPORAL_METRICS_PORT
      ? { host: env.CMAUTOBUY_METRICS_HOST, port: env.CMAUTOBUY_TEMPORAL_METRICS_PORT }
      : undefined,
  });
  const temporal = temporalConnection(env);
  installPayloadKeys(
    resolvePayloadKeys({
      value: env.CMAUTOBUY_TEMPORAL_PAYLOAD_KEYS,
      dataDir: paths.root,
      embedded: temporal.embedded,
    }),
  );
  installTracing({ endpoint: env.CMAUTOBUY_OTEL_ENDPOINT, serviceName: 'cmautobuy-admin-worker' });
  const workflowBundle = loadWorkflowBundle(process.env.CMAUTOBUY_WORKFLOW_BUNDLE);
  const db = await openMigratedAdminDb(paths.adminDb);
  const syb = new SybService(
    db,
    { url: env.CMAUTOBUY_SYB_URL, username: env.CMAUTOBUY_SYB_USERNAME, password: env.CMAUTOBUY_SYB_PASSWORD },
    log,
  );
  if (env.CMAUTOBUY_SYB_URL) syb.warm();
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
