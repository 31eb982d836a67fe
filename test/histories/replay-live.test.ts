import { spawn } from 'node:child_process';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { sharedTemporal } from '../harness';
import { allocateNamespace } from '../namespaces';
import { workflowsVariant } from './variant';
import { temporalDataConverter } from '../../temporal/codec';
import type { systemCheck } from '../../workflows/system-check';

const ROOT = path.resolve(__dirname, '../..');

/** `npm run replay -- --live` as a deploy runs it: a child process reading the admin's environment. */
function replayLive(env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/replay.ts'), '--live'], {
      cwd: ROOT,
      env: { ...process.env, ...env },
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('close', (code) => resolve({ code, out }));
  });
}

/**
 * The deploy gate (docs/versioning.md): the open workflows of the namespace replay on the bundle
 * about to run, or the command exits non-zero naming the ones that would not.
 */
describe('npm run replay -- --live', () => {
  let connection: NativeConnection;
  let client: Client;
  let worker: Worker;
  let running: Promise<void>;
  let namespace: string;
  const taskQueue = `replay-live-${process.pid}`;
  const workflowId = `replay-live-open-${process.pid}`;

  beforeAll(async () => {
    const { address, workflowBundlePath } = sharedTemporal();
    namespace = allocateNamespace();
    connection = await NativeConnection.connect({ address });
    client = new Client({ dataConverter: temporalDataConverter(), connection: await Connection.connect({ address }), namespace });
    worker = await Worker.create({ dataConverter: temporalDataConverter(),
      connection,
      namespace,
      taskQueue,
      workflowBundle: { codePath: workflowBundlePath },
      activities: { recordSystemCheck: async () => ({ db: 'ok' }) },
    });
    running = worker.run();
    // an open workflow: a system check holding for an hour
    const handle = await client.workflow.start<typeof systemCheck>('systemCheck', { workflowId, taskQueue, args: [{ holdSeconds: 3600 }] });
    for (;;) {
      const events = (await handle.fetchHistory()).events ?? [];
      if (events.some((e) => e.timerStartedEventAttributes)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
  });
  afterAll(async () => {
    await client?.workflow.getHandle(workflowId).terminate('test over').catch(() => undefined);
    worker?.shutdown();
    await running;
    await client?.connection.close();
    await connection?.close();
  });

  const target = () => ({
    CMAUTOBUY_TEMPORAL_ADDRESS: sharedTemporal().address,
    CMAUTOBUY_TEMPORAL_NAMESPACE: namespace,
  });

  it('exits 0 when every open workflow replays on the current bundle', async () => {
    const r = await replayLive({ ...target(), CMAUTOBUY_WORKFLOW_BUNDLE: sharedTemporal().workflowBundlePath });
    expect(r.out).toMatch(/replayed 1 open workflows of \S+ on bundle [0-9a-f]{12}: 0 would not replay/);
    expect(r.code).toBe(0);
  });

  it('exits 1 naming the open workflow a reordered bundle would break', async () => {
    // the check ahead of the hold: the open workflow's timer is now an activity
    const { codePath } = await workflowsVariant(
      'if (input.holdSeconds > 0) await sleep(input.holdSeconds * 1000);',
      'await recordSystemCheck({ workflowId: workflowInfo().workflowId });',
    );
    const r = await replayLive({ ...target(), CMAUTOBUY_WORKFLOW_BUNDLE: codePath });
    expect(r.out).toContain(`NOT REPLAYABLE ${workflowId} DeterminismViolationError`);
    expect(r.out).toMatch(/1 would not replay/);
    expect(r.code).toBe(1);
  });
});
