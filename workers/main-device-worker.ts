import { chaosRegister } from '../platform/chaos';
import { dataPaths } from '../platform/data-dir';
import { describeError } from '../platform/errors';
import { onParentGone } from '../platform/parent-watch';
import { createLogger } from '../platform/logger';
import { checkTemporalAtStartup } from '../temporal/startup-checks';
import { installPayloadKeys } from '../temporal/codec';
import { PAYLOAD_KEYS_VAR, resolvePayloadKeys } from '../temporal/codec/keys';
import { PAYLOAD_KEYS_ON_STDIN_VAR, readFirstLine } from '../temporal/codec/keys-handoff';
import { installTemporalRuntime } from '../temporal/runtime';
import { flushTracing, installTracing } from '../temporal/tracing';
import { parseDeviceWorkerArgs } from '../device-worker/args';
import { installProcessGuard } from '../platform/process-guard';
import { tightenTree, usePrivateUmask } from '../platform/private-files';
import { lockDevice } from '../device-worker/runtime/device-lock';
import { readDeviceToken } from '../device-worker/token';
import { startDeviceWorker } from './device';

/**
 * `npm run device-worker -- --device-id <id> --serial <serial> [--adb-host …] [--adb-port …]
 * [--admin-url …] [--token-file …] [--data-dir …] [--metrics-port …] [--metrics-host …]
 * [--temporal-metrics-port …] [--agent on|off]`: one device worker for one phone.
 * Temporal: CMAUTOBUY_TEMPORAL_ADDRESS or 127.0.0.1:CMAUTOBUY_TEMPORAL_PORT, namespace
 * CMAUTOBUY_TEMPORAL_NAMESPACE (cmautobuy); TLS from CMAUTOBUY_TEMPORAL_TLS_CA/_CERT/_KEY/_SERVER_NAME.
 */
async function main(): Promise<void> {
  const config = parseDeviceWorkerArgs(process.argv.slice(2), process.env);
  chaosRegister('device-worker', { deviceId: config.deviceId, serial: config.serial });
  usePrivateUmask();
  const deviceDir = dataPaths(config.dataDir).device(config.deviceId);
  // before anything opens the ledger or writes a log line into this device's folder
  const lock = lockDevice(deviceDir.root, config.deviceId);
  tightenTree(deviceDir.root);
  const log = createLogger({
    name: `device-worker-${config.deviceId}`,
    level: config.logLevel,
    logDir: deviceDir.logs,
  });
  // This process drives a phone: after anything unexpected its state is unknown, so it never
  // carries on. The ledger and Temporal (submitOnce runs at most once) make a restart safe.
  installProcessGuard(log, { unhandledRejection: 'exit' });
  installTemporalRuntime(log, { metrics: config.temporalMetrics });
  // the same ring as the admin's: this worker reads and writes the purchases' payloads. Under a
  // phone host it comes down stdin, as the host got it from the admin (docs/phone-hosts.md).
  const keysOnStdin = process.env[PAYLOAD_KEYS_ON_STDIN_VAR] === '1';
  installPayloadKeys(
    resolvePayloadKeys({
      value: keysOnStdin ? await readFirstLine(process.stdin) : process.env[PAYLOAD_KEYS_VAR],
      dataDir: config.dataDir,
      embedded: config.temporal.embedded,
    }),
  );
  installTracing({ endpoint: process.env.CMAUTOBUY_OTEL_ENDPOINT, serviceName: `cmautobuy-device-${config.deviceId}` });
  await checkTemporalAtStartup({ temporal: config.temporal, log, checkRetention: false });

  const token = readDeviceToken({ env: config.tokenEnv, file: config.tokenFile, dataDir: config.dataDir });
  if (!token || !config.adminUrl) log.warn('no admin URL or device token: running without registration');

  const handle = await startDeviceWorker({
    deviceId: config.deviceId,
    serial: config.serial,
    adb: config.adb,
    dataDir: config.dataDir,
    temporal: config.temporal,
    admin: token && config.adminUrl ? { url: config.adminUrl, token } : undefined,
    log,
    artifactRetentionDays: config.artifactRetentionDays,
    metrics: config.metrics,
    agent: config.agent,
  });
  await handle.ready;
  console.log(`DEVICE WORKER READY ${config.deviceId}${handle.metricsUrl ? ` metrics=${handle.metricsUrl}` : ''}`);

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'device worker stopping');
    handle.stop().then(
      () => {
        lock.release();
        void flushTracing().finally(() => process.exit(0));
      },
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  // a killed phone host leaves its workers behind: each drains as on SIGTERM, and the host's
  // successor starts the phone's worker again
  onParentGone(() => shutdown('parent gone'));
}

main().catch((err: unknown) => {
  console.error('device worker failed to start:', describeError(err));
  process.exit(1);
});
