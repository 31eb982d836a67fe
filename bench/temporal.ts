import path from 'node:path';
import { bundleWorkflows } from '../workers/workflow-bundle';
import { ensureBinary, TEMPORAL_CLI } from '../temporal/binaries';
import { freePort } from '../platform/network';
import { startDevServer, type DevServer } from '../temporal/dev-server';

export interface BenchTemporal {
  address: string;
  namespace: string;
  /** the load part's own namespace: it leaves a batch running that no other part may pick up */
  loadNamespace: string;
  /** the responsiveness part's own namespace: its admin runs the 顺运宝 sync Schedule */
  responsivenessNamespace: string;
  workflowBundlePath: string;
  server: DevServer;
}

/**
 * The bench's own Temporal dev server (free port, SQLite file under `root`, no UI) and the
 * workflow bundle made once, so no admin process spends a minute bundling.
 */
export async function startBenchTemporal(root: string, say: (line: string) => void): Promise<BenchTemporal> {
  ensureBinary(TEMPORAL_CLI, say);
  const namespace = 'bench';
  const loadNamespace = 'bench-load';
  const responsivenessNamespace = 'bench-responsiveness';
  const [server, bundle] = await Promise.all([
    freePort().then((port) =>
      startDevServer({
        dbFile: path.join(root, 'temporal.db'),
        namespace,
        extraNamespaces: [loadNamespace, responsivenessNamespace],
        port,
        uiPort: null,
        logFile: path.join(root, 'temporal.log'),
        say,
      }),
    ),
    // the production bundle's make-up (failure converter included), written under the bench's root
    bundleWorkflows({ outFile: path.join(root, 'workflow-bundle.js') }),
  ]);
  return {
    address: server.address,
    namespace,
    loadNamespace,
    responsivenessNamespace,
    workflowBundlePath: bundle.codePath,
    server,
  };
}
