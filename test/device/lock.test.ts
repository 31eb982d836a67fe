import { spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { DriverGate } from '../../device-worker/runtime/driver-gate';
import { dataPaths } from '../../platform/data-dir';
import { sharedTemporal, tempDataDir } from '../harness';
import { allocateNamespace } from '../namespaces';
import { temporalDataConverter } from '../../temporal/codec';

const ROOT = path.resolve(__dirname, '../..');
const ACTIVITY_QUEUE = 2; // temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY

interface Run {
  child: ChildProcess;
  output: () => string;
  exit: Promise<number | null>;
}

/** `npm run device-worker` as its own process, the way a phone host runs it. */
function deviceWorker(deviceId: string, dataDir: string, namespace: string): Run {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(ROOT, 'workers/main-device-worker.ts'),
      '--device-id',
      deviceId,
      '--serial',
      'sim-lock',
      '--adb-port',
      '1',
      '--data-dir',
      dataDir,
    ],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        CMAUTOBUY_TEMPORAL_ADDRESS: sharedTemporal().address,
        CMAUTOBUY_TEMPORAL_NAMESPACE: namespace,
        CMAUTOBUY_DEVICE_TOKEN: '',
        CMAUTOBUY_ADMIN_URL: '',
      },
    },
  );
  let text = '';
  child.stdout?.on('data', (c: Buffer) => (text += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (text += c.toString()));
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => text, exit };
}

/** Resolves when the worker says READY; rejects if it exits first. */
async function ready(run: Run): Promise<void> {
  let exited = false;
  void run.exit.then(() => (exited = true));
  while (!run.output().includes('DEVICE WORKER READY')) {
    if (exited) throw new Error(`device worker exited before READY:\n${run.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('one device worker per device id on a host', () => {
  let namespace: string;
  let client: Client;
  const started: Run[] = [];

  beforeAll(async () => {
    namespace = allocateNamespace();
    client = new Client({
      dataConverter: temporalDataConverter(),
      connection: await Connection.connect({ address: sharedTemporal().address }),
      namespace,
    });
  });
  afterAll(async () => {
    for (const run of started)
      if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill('SIGKILL');
    await Promise.all(started.map((r) => r.exit));
    await client?.connection.close();
  });

  it('refuses a second worker for the same device, naming the first one; a SIGKILLed holder leaves no stale lock', async () => {
    const deviceId = `lock-${process.pid}`;
    const dataDir = tempDataDir('lock');
    const deviceDir = dataPaths(dataDir).device(deviceId).root;

    const first = deviceWorker(deviceId, dataDir, namespace);
    started.push(first);
    await ready(first);

    // the identity names host, phone and process on the phone's own queue
    const identity = `device-worker@${os.hostname()}/${deviceId}/${first.child.pid}`;
    let pollers: string[] = [];
    while (!pollers.includes(identity)) {
      const desc = await client.workflowService.describeTaskQueue({
        namespace,
        taskQueue: { name: `device/${deviceId}` },
        taskQueueType: ACTIVITY_QUEUE,
      });
      pollers = (desc.pollers ?? []).map((p) => p.identity ?? '');
      if (!pollers.includes(identity)) await new Promise((r) => setTimeout(r, 200));
    }

    const second = deviceWorker(deviceId, dataDir, namespace);
    started.push(second);
    expect(await second.exit).toBe(1);
    expect(second.output()).toContain(`pid ${first.child.pid}`);
    expect(second.output()).toContain(deviceDir);
    expect(second.output()).not.toContain('DEVICE WORKER READY');
    // the refused process did not take the first one down
    expect(first.child.exitCode).toBeNull();

    first.child.kill('SIGKILL');
    await first.exit;
    const third = deviceWorker(deviceId, dataDir, namespace);
    started.push(third);
    await ready(third);
    third.child.kill('SIGTERM');
    expect(await third.exit).toBe(0);
  });
});

describe('one driver per phone across reconnects', () => {
  it('runs activities one after another, whichever Worker took them, and is idle only when all ended', async () => {
    const gate = new DriverGate();
    const events: string[] = [];
    const release: Record<string, () => void> = {};
    const activities = gate.wrap({
      async tap(name: string) {
        events.push(`start ${name}`);
        await new Promise<void>((r) => (release[name] = r));
        events.push(`end ${name}`);
        return name;
      },
    });
    // an activity of the old Worker still running while the new Worker's activity arrives
    const old = activities.tap('old');
    const fresh = activities.tap('new');
    let idle = false;
    const idled = gate.idle().then(() => (idle = true));
    await new Promise((r) => setImmediate(r));
    expect(events).toEqual(['start old']);
    release['old']!();
    await old;
    await new Promise((r) => setImmediate(r));
    expect(events).toEqual(['start old', 'end old', 'start new']);
    expect(idle).toBe(false);
    release['new']!();
    expect(await fresh).toBe('new');
    await idled;
    expect(gate.busy).toBe(0);
  });
});
