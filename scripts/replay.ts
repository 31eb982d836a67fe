import { Client, Connection } from '@temporalio/client';
import { Worker } from '@temporalio/worker';
import { parseEnv } from '../admin/config/env';
import { ensureWorkflowBundle, readWorkflowBundle } from '../workers/workflow-bundle';
import { installPayloadKeys, temporalDataConverter } from '../temporal/codec';
import { resolvePayloadKeys } from '../temporal/codec/keys';
import { temporalConnection, temporalConnectOptions } from '../temporal/connection';
import { tracingSinks } from '../temporal/tracing';

/**
 * The deploy gate (docs/versioning.md): `npm run replay -- --live` replays every open workflow of
 * the configured namespace — found and reached exactly as the admin finds Temporal (the same
 * CMAUTOBUY_TEMPORAL_* variables) — against the workflow bundle the admin would run
 * (CMAUTOBUY_WORKFLOW_BUNDLE, else dist/workflow-bundle.js, rebuilt when stale). It prints one line
 * per workflow that would not replay and exits 1 if there is any, 0 when all replay.
 */

export interface ReplayReport {
  replayed: number;
  failed: { workflowId: string; error: string }[];
}

export async function replayOpenWorkflows(client: Client, bundleCode: string): Promise<ReplayReport> {
  const open = client.workflow.list({ query: 'ExecutionStatus="Running"' }).intoHistories();
  const report: ReplayReport = { replayed: 0, failed: [] };
  for await (const result of Worker.runReplayHistories(
    // the histories' payloads are encrypted (temporal/codec): replayed with the admin's converter
    // and the worker's sinks: a traced workflow's bundle calls one (temporal/tracing.ts)
    { workflowBundle: { code: bundleCode }, dataConverter: temporalDataConverter(), sinks: tracingSinks() },
    open,
  )) {
    report.replayed++;
    if (result.error) report.failed.push({ workflowId: result.workflowId, error: describe(result.error) });
  }
  return report;
}

function describe(err: Error): string {
  return `${err.name}: ${err.message.split('\n')[0]}`;
}

async function main(argv: string[]): Promise<number> {
  if (!argv.includes('--live')) {
    console.error('usage: npm run replay -- --live');
    return 2;
  }
  const env = parseEnv();
  const temporal = temporalConnection(env);
  installPayloadKeys(
    resolvePayloadKeys({
      value: env.CMAUTOBUY_TEMPORAL_PAYLOAD_KEYS,
      dataDir: env.CMAUTOBUY_DATA_DIR,
      embedded: temporal.embedded,
    }),
  );
  const bundlePath = process.env.CMAUTOBUY_WORKFLOW_BUNDLE;
  const bundle = bundlePath ? readWorkflowBundle(bundlePath) : await ensureWorkflowBundle({ info: () => {} });
  const connection = await Connection.connect(temporalConnectOptions(temporal));
  try {
    const client = new Client({ connection, namespace: temporal.namespace, dataConverter: temporalDataConverter() });
    const report = await replayOpenWorkflows(client, bundle.code);
    for (const f of report.failed) console.log(`NOT REPLAYABLE ${f.workflowId} ${f.error}`);
    console.log(
      `replayed ${report.replayed} open workflows of ${temporal.namespace} on bundle ${bundle.buildId}: ` +
        `${report.failed.length} would not replay`,
    );
    return report.failed.length ? 1 : 0;
  } finally {
    await connection.close();
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(`replay: ${err instanceof Error ? err.message : String(err)}`);
      process.exit(2);
    },
  );
}
