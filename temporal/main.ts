import path from 'node:path';
import { z } from 'zod';
import { dataDirEnvShape, parseConfig } from '../platform/config';
import { dataPaths } from '../platform/data-dir';
import { describeError } from '../platform/errors';
import { TEMPORAL_UI_PATH, temporalEnvShape } from './connection';
import { startDevServer } from './dev-server';

/** `npm run temporal`: the embedded dev server alone, on the data dir's SQLite file. */
async function main(): Promise<void> {
  const env = parseConfig(z.object({ ...dataDirEnvShape, ...temporalEnvShape }), process.env, {
    what: 'environment',
    hint: 'Fix or unset these variables (see docs/api.md).',
  });
  const paths = dataPaths(env.CMAUTOBUY_DATA_DIR);
  const server = await startDevServer({
    dbFile: paths.temporalDb,
    namespace: env.CMAUTOBUY_TEMPORAL_NAMESPACE,
    port: env.CMAUTOBUY_TEMPORAL_PORT,
    uiPort: env.CMAUTOBUY_TEMPORAL_UI_PORT,
    retentionDays: env.CMAUTOBUY_TEMPORAL_RETENTION_DAYS,
    // an admin started beside it (`npm run admin`) serves this UI to operators at /temporal/
    uiPublicPath: TEMPORAL_UI_PATH,
    logFile: path.join(paths.logs, 'temporal.log'),
    say: (l) => console.log(l),
  });
  console.log(`TEMPORAL READY ${server.address} ui=${server.uiUrl ?? 'none'}`);
  const stop = () => void server.stop().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err: unknown) => {
  console.error(describeError(err));
  process.exit(1);
});
