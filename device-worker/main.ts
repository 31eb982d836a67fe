import path from 'node:path';
import { parseEnv } from '../admin/config/env';
import { createLogger } from '../admin/config/logger';
import { temporalTls } from '../admin/config/tls';
import { installTemporalRuntime } from '../admin/temporal/runtime';
import { installProcessGuard } from '../platform/process-guard';
import { tightenTree, usePrivateUmask } from '../platform/private-files';
import { parseFlags, portOf } from './args';
import { readDeviceToken } from './token';
import { startDeviceWorker } from './worker';

const KNOWN = ['device-id', 'serial', 'adb-host', 'adb-port', 'admin-url', 'token-file', 'data-dir', 'artifact-retention-days'];

/**
 * `npm run device-worker -- --device-id <id> --serial <serial> [--adb-host …] [--adb-port …]
 * [--admin-url …] [--token-file …] [--data-dir …]`: one device worker for one phone.
 * Temporal: CMAUTOBUY_TEMPORAL_ADDRESS or 127.0.0.1:CMAUTOBUY_TEMPORAL_PORT, namespace
 * CMAUTOBUY_TEMPORAL_NAMESPACE (cmautobuy); TLS from CMAUTOBUY_TEMPORAL_TLS_CA/_CERT/_KEY/_SERVER_NAME.
 */
async function main(): Promise<void> {
  const env = process.env;
  const { flags } = parseFlags(process.argv.slice(2), KNOWN);
  const deviceId = flags['device-id'] ?? env['CMAUTOBUY_DEVICE_ID'];
  const serial = flags['serial'];
  if (!deviceId) throw new Error('--device-id is required (the id `npm run cli -- device issue <name>` printed)');
  if (!serial) throw new Error('--serial is required: the worker never picks a phone by itself');
  const dataDir = path.resolve(flags['data-dir'] ?? env['CMAUTOBUY_DATA_DIR'] ?? './data');
  usePrivateUmask();
  tightenTree(path.join(dataDir, 'device', deviceId));
  const logDir = path.join(dataDir, 'device', deviceId, 'logs');
  const log = createLogger({ name: `device-worker-${deviceId}`, level: env['CMAUTOBUY_LOG_LEVEL'] ?? 'info', logDir });
  // This process drives a phone: after anything unexpected its state is unknown, so it never
  // carries on. The ledger and Temporal (submitOnce runs at most once) make a restart safe.
  installProcessGuard(log, { unhandledRejection: 'exit' });
  installTemporalRuntime(log);

  const token = readDeviceToken({ env: env['CMAUTOBUY_DEVICE_TOKEN'], file: flags['token-file'], dataDir });
  const adminUrl = flags['admin-url'] ?? env['CMAUTOBUY_ADMIN_URL'];
  if (!token || !adminUrl) log.warn('no admin URL or device token: running without registration');

  const address = env['CMAUTOBUY_TEMPORAL_ADDRESS'] || `127.0.0.1:${portOf(env['CMAUTOBUY_TEMPORAL_PORT'], 7233, 'CMAUTOBUY_TEMPORAL_PORT')}`;
  const handle = await startDeviceWorker({
    deviceId,
    serial,
    adb: { host: flags['adb-host'] ?? '127.0.0.1', port: portOf(flags['adb-port'], 5037, '--adb-port') },
    dataDir,
    // One rule for every process: plain gRPC only on loopback (admin/config/tls.ts).
    temporal: { address, namespace: env['CMAUTOBUY_TEMPORAL_NAMESPACE'] || 'cmautobuy', tls: temporalTls(parseEnv(env), address) },
    admin: token && adminUrl ? { url: adminUrl, token } : undefined,
    log,
    artifactRetentionDays: flags['artifact-retention-days'] ? Number(flags['artifact-retention-days']) : undefined,
  });
  await handle.ready;
  console.log(`DEVICE WORKER READY ${deviceId}`);

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'device worker stopping');
    handle.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((err: unknown) => {
  console.error('device worker failed to start:', err instanceof Error ? err.message : err);
  process.exit(1);
});
