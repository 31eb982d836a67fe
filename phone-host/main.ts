import path from 'node:path';
import { chaosRegister } from '../platform/chaos';
import { describeError } from '../platform/errors';
import { createLogger } from '../platform/logger';
import { installProcessGuard } from '../platform/process-guard';
import { usePrivateUmask } from '../platform/private-files';
import { parsePhoneHostArgs } from './args';
import { PhoneHost } from './host';
import { HostMetrics } from './metrics';

/**
 * `npm run phone-host -- --admin-url URL --token-file FILE [--adb-host H] [--adb-port P]
 * [--data-dir D] [--metrics-port N]`: every phone plugged into this machine, one device worker
 * each (docs/phone-hosts.md). Prints `PHONE HOST READY <host_id> metrics=<host:port>`. The
 * payload keys are never read here from the environment or a file: the admin sends them.
 */
async function main(): Promise<void> {
  const config = parsePhoneHostArgs(process.argv.slice(2), process.env);
  chaosRegister('phone-host');
  usePrivateUmask();
  const log = createLogger({
    name: `phone-host-${config.hostId}`,
    level: config.logLevel,
    logDir: path.join(config.dataDir, 'logs'),
  });
  installProcessGuard(log, { unhandledRejection: 'log' });
  const metrics = new HostMetrics();
  const metricsTarget = await metrics.listen(config.metrics.host, config.metrics.port);
  const ms = (name: string, dflt: number) => Number(process.env[name] ?? '') || dflt;
  const host = new PhoneHost({
    adminUrl: config.adminUrl,
    hostId: config.hostId,
    token: config.token,
    adb: config.adb,
    dataDir: config.dataDir,
    log,
    metrics,
    metricsTarget,
    syncMs: ms('CMAUTOBUY_HOST_SYNC_MS', 5_000),
    healthMs: ms('CMAUTOBUY_HOST_HEALTH_MS', 60_000),
    // no payload keys here: they come over the admin channel (docs/phone-hosts.md "Payload keys")
  });
  await host.start();
  console.log(`PHONE HOST READY ${config.hostId} metrics=${metricsTarget}`);

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'phone host stopping: draining every device worker');
    host
      .stop()
      .then(() => metrics.close())
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((err: unknown) => {
  console.error('phone host failed to start:', describeError(err));
  process.exit(1);
});
