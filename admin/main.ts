import { ConfigError } from '../platform/config';
import { dataPaths } from '../platform/data-dir';
import { describeError } from '../platform/errors';
import { createLogger } from '../platform/logger';
import { temporalConnection } from '../temporal/connection';
import { installTemporalRuntime } from '../temporal/runtime';
import { checkTemporalAtStartup } from '../temporal/startup-checks';
import { parseEnv } from './config/env';
import { adminListen } from './config/tls';
import { startAdmin } from './server';

/** `npm run admin`: the admin process alone (npm start runs it as a child). */
async function main(): Promise<void> {
  const env = parseEnv();
  const paths = dataPaths(env.CMAUTOBUY_DATA_DIR);
  const log = createLogger({ name: 'admin', level: env.CMAUTOBUY_LOG_LEVEL, logDir: paths.logs });
  installTemporalRuntime(log);
  const temporal = temporalConnection(env);
  const listen = adminListen(env);
  await checkTemporalAtStartup({ temporal, log, checkRetention: true });
  const admin = await startAdmin({
    dataDir: paths.root,
    host: listen.host,
    port: listen.port,
    tls: listen.tls,
    allowPlaintextNonLoopback: listen.allowPlaintextNonLoopback,
    initialAdminPassword: env.CMAUTOBUY_ADMIN_PASSWORD,
    temporal,
    log,
    workflowBundlePath: process.env.CMAUTOBUY_WORKFLOW_BUNDLE,
  });
  log.info({ url: admin.url, temporal: temporal.address }, 'admin listening');
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
  else console.error('admin failed to start:', describeError(err));
  process.exit(1);
});
