import { ConfigError } from '../platform/config';
import { dataPaths } from '../platform/data-dir';
import { describeError } from '../platform/errors';
import { createLogger } from '../platform/logger';
import { temporalConnection, temporalTarget } from '../temporal/connection';
import { installPayloadKeys } from '../temporal/codec';
import { resolvePayloadKeys } from '../temporal/codec/keys';
import { installTemporalRuntime } from '../temporal/runtime';
import { flushTracing, installTracing } from '../temporal/tracing';
import { checkTemporalAtStartup } from '../temporal/startup-checks';
import { parseEnv } from './config/env';
import { adminListen } from './config/tls';
import { installProcessGuard } from '../platform/process-guard';
import { tightenTree, usePrivateUmask } from '../platform/private-files';
import { scheduleBackups } from './backup/schedule';
import { loadWorkflowBundle, MissingWorkflowBundle } from './temporal/workflow-bundle';
import { startAdmin } from './server';

/**
 * `npm run admin`: the admin process — HTTP API, operator UI, its Temporal client and, unless
 * `--no-worker`, the admin worker. `npm start` runs it with `--no-worker` and the worker as a
 * child of its own (`npm run admin-worker`, admin/temporal/worker-main.ts), off the event loop
 * that answers operators (docs/PERFORMANCE.md); a deployment does the same with two units
 * (docs/operations.md).
 */
async function main(): Promise<void> {
  usePrivateUmask();
  const env = parseEnv();
  const paths = dataPaths(env.CMAUTOBUY_DATA_DIR);
  for (const dir of [paths.evidence, paths.logs]) tightenTree(dir);
  const log = createLogger({ name: 'admin', level: env.CMAUTOBUY_LOG_LEVEL, logDir: paths.logs });
  // Every admin write is one SQLite transaction, committed or rolled back, so a promise
  // nobody awaited cannot leave half-done state: keep serving. An uncaught exception can
  // (a callback stopped half-way), so it exits and `npm start` restarts the admin.
  installProcessGuard(log, { unhandledRejection: 'log' });
  installTemporalRuntime(log, {
    metrics: env.CMAUTOBUY_TEMPORAL_METRICS_PORT
      ? { host: env.CMAUTOBUY_METRICS_HOST, port: env.CMAUTOBUY_TEMPORAL_METRICS_PORT }
      : undefined,
  });
  const temporal = temporalConnection(env);
  // before any client or worker: every payload this process writes to Temporal is encrypted
  installPayloadKeys(
    resolvePayloadKeys({
      value: env.CMAUTOBUY_TEMPORAL_PAYLOAD_KEYS,
      dataDir: paths.root,
      embedded: temporal.embedded,
    }),
  );
  installTracing({ endpoint: env.CMAUTOBUY_OTEL_ENDPOINT, serviceName: 'cmautobuy-admin' });
  const listen = adminListen(env);
  const withWorker = !process.argv.includes('--no-worker');
  // the prebuilt bundle or nothing: a missing one stops the start with what to run
  const workflowBundle = withWorker ? loadWorkflowBundle(process.env.CMAUTOBUY_WORKFLOW_BUNDLE) : undefined;
  if (workflowBundle)
    log.info({ codePath: workflowBundle.codePath, buildId: workflowBundle.buildId }, 'workflow bundle');
  await checkTemporalAtStartup({ temporal, log, checkRetention: true });
  const admin = await startAdmin({
    dataDir: paths.root,
    host: listen.host,
    port: listen.port,
    tls: listen.tls,
    allowPlaintextNonLoopback: listen.allowPlaintextNonLoopback,
    initialAdminPassword: env.CMAUTOBUY_ADMIN_PASSWORD,
    syb: { url: env.CMAUTOBUY_SYB_URL, username: env.CMAUTOBUY_SYB_USERNAME, password: env.CMAUTOBUY_SYB_PASSWORD },
    security: {
      trustProxy: env.CMAUTOBUY_TRUST_PROXY === '1',
      metricsToken: env.CMAUTOBUY_METRICS_TOKEN,
      allowedHosts: [listen.host, ...env.CMAUTOBUY_ADMIN_ALLOWED_HOSTS],
    },
    temporal: { ...temporal, uiUrl: temporalTarget(env).uiUrl },
    log,
    workflowBundlePath: workflowBundle?.codePath,
    inlineWorker: withWorker,
  });
  log.info({ url: admin.url, temporal: temporal.address }, 'admin listening');
  console.log(`ADMIN READY ${admin.url}`);
  const backups = env.CMAUTOBUY_BACKUP_DIR
    ? scheduleBackups({
        dbFile: paths.adminDb,
        dir: env.CMAUTOBUY_BACKUP_DIR,
        keep: env.CMAUTOBUY_BACKUP_KEEP,
        intervalMs: env.CMAUTOBUY_BACKUP_INTERVAL_HOURS * 3_600_000,
        log,
      })
    : undefined;

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'admin stopping');
    backups?.stop();
    admin.close().then(
      () => flushTracing().finally(() => process.exit(0)),
      (err: unknown) => {
        log.error({ err }, 'admin did not stop cleanly');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError || err instanceof MissingWorkflowBundle) console.error(err.message);
  else console.error('admin failed to start:', describeError(err));
  process.exit(1);
});
