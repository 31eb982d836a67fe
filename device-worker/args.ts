import path from 'node:path';
import { z } from 'zod';
import { logLevelEnvShape, parseConfig, parseFlags, port } from '../platform/config';
import { SAFE_DEVICE_ID } from '../platform/data-dir';
import { metricsHostEnvShape } from '../platform/metrics';
import { temporalConnection, temporalEnvShape, type TemporalSetup } from '../temporal/connection';

/** The flags of `npm run device-worker`; each is read below through the one schema. */
const DEVICE_WORKER_FLAGS = [
  'agent',
  'device-id',
  'serial',
  'adb-host',
  'adb-port',
  'admin-url',
  'token-file',
  'data-dir',
  'artifact-retention-days',
  'metrics-port',
  'metrics-host',
  'temporal-metrics-port',
] as const;

/** The ADB server's own port when the phone is attached to this host. */
export const ADB_DEFAULT = { host: '127.0.0.1', port: 5037 } as const;

export const adbPort = port.min(1);

/**
 * Flags and environment of one device worker, parsed like the admin's (platform/config.ts): a
 * flag wins over its variable, and an error names the flag. The token itself is read by
 * `readDeviceToken` (token.ts), since it may come from a file.
 */
const schema = z.object({
  '--device-id': z
    .string({ error: 'required: the id `npm run cli -- device issue <name>` printed (or CMAUTOBUY_DEVICE_ID)' })
    .regex(SAFE_DEVICE_ID, 'must be a safe folder name (letters, digits, . _ -)'),
  '--serial': z.string({ error: 'required: the worker never picks a phone by itself' }),
  '--adb-host': z.string().default(ADB_DEFAULT.host),
  '--adb-port': adbPort.default(ADB_DEFAULT.port),
  '--admin-url': z.url().optional(),
  '--token-file': z.string().optional(),
  '--data-dir': z.string().default('./data'),
  '--artifact-retention-days': z.coerce.number().int().min(1).optional(),
  // Metrics listeners of their own (docs/operations.md "Metrics"); unset or 0 = not served.
  '--metrics-port': port.optional(),
  '--metrics-host': metricsHostEnvShape.CMAUTOBUY_METRICS_HOST,
  '--temporal-metrics-port': port.optional(),
  // the on-device agent reads the screen while it runs (docs/phone-hosts.md "The on-device agent")
  '--agent': z.enum(['on', 'off'], { error: 'must be on or off' }).default('on'),
  CMAUTOBUY_DEVICE_TOKEN: z.string().optional(),
  ...logLevelEnvShape,
  ...temporalEnvShape,
});

export interface DeviceWorkerConfig {
  deviceId: string;
  serial: string;
  adb: { host: string; port: number };
  /** absolute */
  dataDir: string;
  adminUrl: string | undefined;
  tokenFile: string | undefined;
  tokenEnv: string | undefined;
  artifactRetentionDays: number | undefined;
  logLevel: string;
  temporal: TemporalSetup;
  /** this worker's own metrics (device-worker/runtime/metrics.ts), when asked for */
  metrics: { host: string; port: number } | undefined;
  /** the Temporal SDK's worker metrics (temporal/runtime.ts), when asked for */
  temporalMetrics: { host: string; port: number } | undefined;
  /** read the screen through the on-device agent while it runs */
  agent: boolean;
}

export function parseDeviceWorkerArgs(argv: readonly string[], env: NodeJS.ProcessEnv): DeviceWorkerConfig {
  const { flags } = parseFlags(argv, DEVICE_WORKER_FLAGS);
  const c = parseConfig(
    schema,
    {
      ...env,
      ...flags,
      '--device-id': flags['--device-id'] ?? env['CMAUTOBUY_DEVICE_ID'],
      '--admin-url': flags['--admin-url'] ?? env['CMAUTOBUY_ADMIN_URL'],
      '--data-dir': flags['--data-dir'] ?? env['CMAUTOBUY_DATA_DIR'],
      '--metrics-port': flags['--metrics-port'] ?? env['CMAUTOBUY_DEVICE_METRICS_PORT'],
      '--metrics-host': flags['--metrics-host'] ?? env['CMAUTOBUY_METRICS_HOST'],
      '--temporal-metrics-port': flags['--temporal-metrics-port'] ?? env['CMAUTOBUY_TEMPORAL_METRICS_PORT'],
      '--agent': flags['--agent'] ?? env['CMAUTOBUY_PHONE_AGENT'],
    },
    {
      what: 'device worker options',
      hint: 'usage: npm run device-worker -- --device-id <id> --serial <serial> [--adb-host …] [--adb-port …] [--admin-url …] [--token-file …] [--data-dir …] [--metrics-port …] [--metrics-host …] [--temporal-metrics-port …] [--agent on|off]',
    },
  );
  return {
    deviceId: c['--device-id'],
    serial: c['--serial'],
    adb: { host: c['--adb-host'], port: c['--adb-port'] },
    dataDir: path.resolve(c['--data-dir']),
    adminUrl: c['--admin-url'],
    tokenFile: c['--token-file'],
    tokenEnv: c.CMAUTOBUY_DEVICE_TOKEN,
    artifactRetentionDays: c['--artifact-retention-days'],
    logLevel: c.CMAUTOBUY_LOG_LEVEL,
    // One rule for every process: plain gRPC only on loopback (temporal/connection.ts).
    temporal: temporalConnection(c),
    metrics: c['--metrics-port'] ? { host: c['--metrics-host'], port: c['--metrics-port'] } : undefined,
    temporalMetrics: c['--temporal-metrics-port']
      ? { host: c['--metrics-host'], port: c['--temporal-metrics-port'] }
      : undefined,
    agent: c['--agent'] === 'on',
  };
}
