import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { freePort } from '../../platform/network';
import { TEST_ADMIN_PASSWORD } from '../harness';
import { BLACK_M, startPurchaseRig, type PurchaseRig } from '../purchase/setup';
import { parsePrometheusText, valueOf } from './prom-text';

const ROOT = path.resolve(__dirname, '../..');

/**
 * The Temporal SDK's own worker metrics (temporal/runtime.ts): the Runtime is one per process,
 * so this runs the admin as its own process (`npm run admin`) with
 * CMAUTOBUY_TEMPORAL_METRICS_PORT, as `npm start` does, and reads what the SDK exports while a
 * purchase runs through it.
 */
describe('Temporal SDK metrics of the admin process', () => {
  let rig: PurchaseRig;
  let child: ChildProcess | undefined;
  let sdkPort: number;

  beforeAll(async () => {
    rig = await startPurchaseRig({ adminWorker: false });
    sdkPort = await freePort();
    child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'workers/main-admin.ts')], {
      cwd: ROOT,
      env: {
        ...process.env,
        CMAUTOBUY_DATA_DIR: rig.admin.dataDir,
        CMAUTOBUY_ADMIN_PORT: String(await freePort()),
        CMAUTOBUY_TEMPORAL_ADDRESS: process.env.CMAUTOBUY_TEST_TEMPORAL_ADDRESS,
        CMAUTOBUY_TEMPORAL_NAMESPACE: rig.admin.namespace,
        CMAUTOBUY_WORKFLOW_BUNDLE: process.env.CMAUTOBUY_TEST_WORKFLOW_BUNDLE,
        CMAUTOBUY_ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
        CMAUTOBUY_TEMPORAL_METRICS_PORT: String(sdkPort),
        CMAUTOBUY_LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output: string[] = [];
    child.stderr?.on('data', (d: Buffer) => output.push(d.toString()));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`admin process not ready within 60 s:\n${output.join('')}`)),
        60_000,
      );
      child!.once('exit', (code) => reject(new Error(`admin process exited ${code}:\n${output.join('')}`)));
      readline.createInterface({ input: child!.stdout! }).on('line', (line) => {
        if (!line.startsWith('ADMIN READY')) return;
        clearTimeout(timer);
        resolve();
      });
    });
  }, 90_000);
  afterAll(async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child!.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    await rig?.close();
  });

  it('exports the worker metrics the alerts of docs/operations.md are written against', async () => {
    const id = await rig.purchase({ ...BLACK_M, quantity: 1, maxTotalPriceCent: 2000, mode: 'dry_run' });
    expect((await rig.waitFor(id, ['DRY_RUN_PASSED', 'NEEDS_MANUAL'])).status).toBe('DRY_RUN_PASSED');
    const res = await fetch(`http://127.0.0.1:${sdkPort}/metrics`);
    expect(res.status).toBe(200);
    const scrape = parsePrometheusText(await res.text());
    const ns = { namespace: rig.admin.namespace, task_queue: 'admin' };
    // durations in seconds with the unit in the name, as docs/operations.md spells them
    expect(scrape.types.get('temporal_workflow_task_schedule_to_start_latency_seconds')).toBe('histogram');
    expect(valueOf(scrape, 'temporal_workflow_task_schedule_to_start_latency_seconds_count', ns)).toBeGreaterThan(0);
    expect(
      valueOf(scrape, 'temporal_activity_execution_latency_seconds_count', {
        ...ns,
        activity_type: 'recordPurchaseStatus',
      }),
    ).toBeGreaterThan(0);
    expect(valueOf(scrape, 'temporal_num_pollers', { ...ns, poller_type: 'workflow_task' })).toBeGreaterThan(0);
  });
});
