import { ConfigError, dataPaths, parseEnv, temporalTarget } from './config/env';
import { createLogger } from './config/logger';
import { adminListen, temporalTls } from './config/tls';
import { startAdmin } from './server';
import { installTemporalRuntime } from './temporal/runtime';

/** `npm run admin`: the admin process alone (npm start runs it as a child). */
async function main(): Promise<void> {
  const env = parseEnv();
  const paths = dataPaths(env.CMAUTOBUY_DATA_DIR);
  const log = createLogger({ name: 'admin', level: env.CMAUTOBUY_LOG_LEVEL, logDir: paths.logs });
  installTemporalRuntime(log);
  const target = temporalTarget(env);
  const listen = adminListen(env);
  const admin = await startAdmin({
    dataDir: paths.root,
    host: listen.host,
    port: listen.port,
    tls: listen.tls,
    allowPlaintextNonLoopback: listen.allowPlaintextNonLoopback,
    initialAdminPassword: env.CMAUTOBUY_ADMIN_PASSWORD,
    temporal: { address: target.address, namespace: target.namespace, tls: temporalTls(env, target.address), uiUrl: target.uiUrl },
    log,
    workflowBundlePath: process.env.CMAUTOBUY_WORKFLOW_BUNDLE,
  });
  log.info({ url: admin.url, temporal: target.address }, 'admin listening');
  console.log(`ADMIN READY ${admin.url}`);

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'admin stopping');
    admin.close().then(
      () => process.exit(0),
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
  if (err instanceof ConfigError) console.error(err.message);
  else console.error('admin failed to start:', err instanceof Error ? err.message : err);
  process.exit(1);
});
