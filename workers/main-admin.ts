import { chaosRegister } from '../platform/chaos';
import { ConfigError } from '../platform/config';
import { describeError } from '../platform/errors';
import { temporalTarget, type TemporalTarget } from '../temporal/connection';
import { flushTracing } from '../temporal/tracing';
import { checkTemporalAtStartup } from '../temporal/startup-checks';
import { adminListen } from '../admin/config/tls';
import { tightenTree } from '../platform/private-files';
import { scheduleBackups } from '../admin/backup/schedule';
import { loadWorkflowBundle, MissingWorkflowBundle } from './workflow-bundle';
import { startAdmin } from './admin';
import { setUpAdminProcess } from '../admin/process-setup';

/**
 * `npm run admin`: the admin process — HTTP API, operator UI, its Temporal client and, unless
 * `--no-worker`, the admin worker. `npm start` runs it with `--no-worker` and the worker as a
 * child of its own (`npm run admin-worker`, workers/main-admin-worker.ts), off the event loop
 * that answers operators (docs/PERFORMANCE.md); a deployment does the same with two units
 * (docs/operations.md).
 */
async function main(): Promise<void> {
  const { env, paths, log, temporal } = setUpAdminProcess('admin', (p) => {
    for (const dir of [p.evidence, p.logs]) tightenTree(dir);
  });
  const listen = adminListen(env);
  const withWorker = !process.argv.includes('--no-worker');
  chaosRegister('admin-http');
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
    temporal: { ...temporal, ...uiOf(temporalTarget(env)) },
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

/** Where operators open the Web UI, and the embedded one the admin serves itself. */
function uiOf({ uiUrl, uiUpstream }: TemporalTarget): { uiUrl: string | null; uiUpstream: string | null } {
  return { uiUrl, uiUpstream };
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError || err instanceof MissingWorkflowBundle) console.error(err.message);
  else console.error('admin failed to start:', describeError(err));
  process.exit(1);
});
