import { ConfigError, dataPaths, parseEnv, temporalTarget } from './config/env';
import { createLogger } from './config/logger';
import { startAdmin } from './server';
import { installTemporalRuntime } from './temporal/runtime';

/** `npm run admin`: the admin process alone (npm start runs it as a child). */
async function main(): Promise<void> {
  const env = parseEnv();
  const paths = dataPaths(env.CMAUTOBUY_DATA_DIR);
  const log = createLogger({ name: 'admin', level: env.CMAUTOBUY_LOG_LEVEL, logDir: paths.logs });
  installTemporalRuntime(log);
  const target = temporalTarget(env);
  const admin = await startAdmin({
    dataDir: paths.root,
    host: env.CMAUTOBUY_ADMIN_HOST,
    port: env.CMAUTOBUY_ADMIN_PORT,
    temporal: { address: target.address, namespace: target.namespace },
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
