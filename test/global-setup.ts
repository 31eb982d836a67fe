import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureWorkflowBundle } from '../workers/workflow-bundle';
import { ensureBinary, TEMPORAL_CLI, TEMPORAL_TEST_SERVER } from '../temporal/binaries';
import { newPayloadKeyEntry, PAYLOAD_KEYS_VAR } from '../temporal/codec/keys';
import { freePort } from '../platform/network';
import { startDevServer, type DevServer } from '../temporal/dev-server';
import { TEMPORAL_UI_PATH } from '../temporal/connection';
import { TEST_NAMESPACE_POOL } from './namespaces';

declare global {
  var __cmautobuyTemporal: DevServer | undefined;
  var __cmautobuyTmp: string | undefined;
}

/**
 * One real Temporal dev server for the whole run (2 cores: a server per file would cost more
 * than the tests). Each test file takes its own namespace from a pre-created pool, so workflow
 * ids and task queues never collide between files running side by side.
 */
export default async function globalSetup(): Promise<void> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cmautobuy-test-'));
  globalThis.__cmautobuyTmp = tmp;
  process.env.CMAUTOBUY_TEST_TMP = tmp;
  // A fresh payload key per run, for every client and worker of every test file (test/harness.ts)
  // and every process a test spawns: each test exercises the encryption codec.
  process.env[PAYLOAD_KEYS_VAR] = newPayloadKeyEntry();
  if (process.env.CMAUTOBUY_TEST_NO_TEMPORAL === '1') return;

  const say = (line: string) => process.stderr.write(`[test setup] ${line}\n`);
  ensureBinary(TEMPORAL_CLI, say);
  process.env.CMAUTOBUY_TEST_TIME_SKIPPING_SERVER = ensureBinary(TEMPORAL_TEST_SERVER, say);

  const [server, bundle] = await Promise.all([
    Promise.all([freePort(), freePort()]).then(([port, uiPort]) =>
      startDevServer({
        dbFile: path.join(tmp, 'temporal.db'),
        namespace: 'cmautobuy',
        extraNamespaces: TEST_NAMESPACE_POOL,
        port,
        // the Web UI too, so a browser test can follow the task page's 工作流 link to it, at the
        // path an admin serves it under (admin/http/temporal-ui-proxy.ts)
        uiPort,
        uiPublicPath: TEMPORAL_UI_PATH,
        logFile: path.join(tmp, 'temporal.log'),
        say,
      }),
    ),
    // The production bundle itself (npm test builds it first; a stale one is rebuilt here), so
    // every test, and the replay of the recorded histories, runs the code the admin would run.
    ensureWorkflowBundle({ info: (fields, message) => say(`${message} ${JSON.stringify(fields)}`) }),
  ]);
  globalThis.__cmautobuyTemporal = server;
  process.env.CMAUTOBUY_TEST_TEMPORAL_ADDRESS = server.address;
  if (server.uiUrl) process.env.CMAUTOBUY_TEST_TEMPORAL_UI_URL = server.uiUrl;
  process.env.CMAUTOBUY_TEST_WORKFLOW_BUNDLE = bundle.codePath;
}
