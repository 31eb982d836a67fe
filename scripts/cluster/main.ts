import path from 'node:path';
import { parseArgs } from 'node:util';
import { describeError } from '../../platform/errors';
import { startCluster } from './cluster';

const USAGE = `npm run cluster -- [--root DIR] [--port N] [--namespace NAME]

A Temporal cluster on this machine (docs/operations.md "Running on a Temporal cluster"): the server
built from source, PostgreSQL, four service processes. Runs until Ctrl-C.
  --root       its folder (PostgreSQL data, config, logs); default <data dir>/temporal-cluster
  --port       the frontend's gRPC port; default a free one, kept for the next start
  --namespace  default cmautobuy`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      root: { type: 'string' },
      port: { type: 'string' },
      namespace: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const dataDir = process.env.CMAUTOBUY_DATA_DIR ?? path.resolve(__dirname, '../../data');
  const root = values.root ?? path.join(dataDir, 'temporal-cluster');
  const port = values.port === undefined ? undefined : Number(values.port);
  if (port !== undefined && !(Number.isInteger(port) && port > 0 && port < 65536))
    throw new Error(`--port ${values.port}: expected a TCP port`);
  const say = (line: string) => console.log(`[cluster] ${line}`);
  const cluster = await startCluster({ root, say, port, namespace: values.namespace });
  console.log(`CMAUTOBUY_TEMPORAL_ADDRESS=${cluster.address}`);
  console.log(`CMAUTOBUY_TEMPORAL_NAMESPACE=${cluster.namespace}`);
  say(`ready; pids ${JSON.stringify(cluster.pids())}; Ctrl-C stops it`);

  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    say('stopping');
    cluster.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error(describeError(err));
        process.exit(1);
      },
    );
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, stop);
}

main().catch((err: unknown) => {
  console.error(describeError(err));
  process.exit(1);
});
