import { dataPaths, type DataPaths } from '../platform/data-dir';
import { createLogger, type Logger } from '../platform/logger';
import { installProcessGuard } from '../platform/process-guard';
import { usePrivateUmask } from '../platform/private-files';
import { installPayloadKeys } from '../temporal/codec';
import { resolvePayloadKeys } from '../temporal/codec/keys';
import { temporalConnection, type TemporalSetup } from '../temporal/connection';
import { installTemporalRuntime } from '../temporal/runtime';
import { installTracing } from '../temporal/tracing';
import { parseEnv, type Env } from './config/env';

export interface AdminProcess {
  env: Env;
  paths: DataPaths;
  log: Logger;
  temporal: TemporalSetup;
}

/**
 * What the admin and the admin worker both do first, in this order: private files, the logger,
 * the process guard (every admin write is one SQLite transaction, committed or rolled back, so a
 * promise nobody awaited cannot leave half-done state: keep serving; an uncaught exception exits
 * and `npm start` restarts the process), Temporal's runtime, the payload keys before any client
 * or worker (every payload the process writes to Temporal is encrypted) and tracing.
 * `beforeLog` runs once the data paths are known, before the log file is opened.
 */
export function setUpAdminProcess(
  name: 'admin' | 'admin-worker',
  beforeLog?: (paths: DataPaths) => void,
): AdminProcess {
  usePrivateUmask();
  const env = parseEnv();
  const paths = dataPaths(env.CMAUTOBUY_DATA_DIR);
  beforeLog?.(paths);
  const log = createLogger({ name, level: env.CMAUTOBUY_LOG_LEVEL, logDir: paths.logs });
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
  installTracing({ endpoint: env.CMAUTOBUY_OTEL_ENDPOINT, serviceName: `cmautobuy-${name}` });
  return { env, paths, log, temporal };
}
