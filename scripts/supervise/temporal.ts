import path from 'node:path';
import type { Env } from '../../admin/config/env';
import type { DataPaths } from '../../platform/data-dir';
import type { TemporalTarget } from '../../temporal/connection';
import { startDevServer, waitForTemporal, type DevServer } from '../../temporal/dev-server';

/**
 * The Temporal server of `npm start`: the embedded dev server (SQLite under the data dir), or an
 * existing server the environment names, waited for. Only the embedded one is ours to stop.
 */
export async function startTemporal(
  env: Env,
  paths: DataPaths,
  target: TemporalTarget,
  adminBase: string,
  say: (line: string) => void,
): Promise<DevServer | undefined> {
  if (!target.embedded) {
    say(`using the Temporal server at ${target.address}`);
    await waitForTemporal(target.address, target.namespace, 30_000);
    return undefined;
  }
  say(`starting Temporal dev server on ${target.address}`);
  return startDevServer({
    dbFile: paths.temporalDb,
    namespace: target.namespace,
    port: env.CMAUTOBUY_TEMPORAL_PORT,
    uiPort: env.CMAUTOBUY_TEMPORAL_UI_PORT,
    logFile: path.join(paths.logs, 'temporal.log'),
    retentionDays: env.CMAUTOBUY_TEMPORAL_RETENTION_DAYS,
    // the Web UI decodes every payload through the admin (an operator's session, docs/operations.md)
    uiCodecEndpoint: `${adminBase}/api/codec`,
    say,
  });
}
