import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { MockActivityEnvironment } from '@temporalio/testing';
import { startPhoneSim, type PhoneSim } from '../../sim/phone/index';
import { createDeviceActivities } from '../../activities/device';
import type { DeviceClaim, DeviceHealth } from '../../domain/contracts/device-activities';
import { AdbDevice } from '../../device-worker/adb/adb-device';
import { ArtifactStore } from '../../device-worker/artifacts';
import { DeviceLedger, type ClaimRow } from '../../device-worker/ledger/ledger';
import { DEFAULT_TIMING } from '../../device-worker/pdd/session';
import type { DeviceWorkerHandle } from '../../workers/device';
import { allocateNamespace } from '../namespaces';
import { sharedTemporal, tempDataDir, testLogger } from '../harness';
import { deviceWorker, FAST_TIMING, startWorkflowWorker, until } from './fixtures';
import { temporalDataConverter } from '../../temporal/codec';
import type { deviceCheck } from '../../workflows/device-check';

/** The device claim (workflows/device-claim.ts) on the real Temporal server, driven by `deviceCheck`. */
describe('device claim', () => {
  let sim: PhoneSim;
  let client: Client;
  let wfWorker: { stop(): Promise<void> };
  let address: string;
  let namespace: string;
  const dataA = tempDataDir('device-a');
  const dataB = tempDataDir('device-b');
  let devA: DeviceWorkerHandle | undefined;
  let devB: DeviceWorkerHandle | undefined;
  const startA = async () => (devA = await worker('dev-k1', 'sim-k1', dataA));
  const worker = (deviceId: string, serial: string, dataDir: string) =>
    deviceWorker({
      deviceId,
      serial,
      adb: { host: '127.0.0.1', port: sim.adbPort },
      dataDir,
      temporal: { address, namespace },
      timing: FAST_TIMING,
    });
  const ledgerA = () => new DeviceLedger(path.join(dataA, 'device', 'dev-k1', 'ledger.db'), 'dev-k1');
  const claimsA = (): ClaimRow[] => {
    const l = ledgerA();
    try {
      return l.claims();
    } finally {
      l.close();
    }
  };
  const openClaimA = () => claimsA().find((c) => c.released_at === null);
  const check = (holdSeconds: number, id: string) =>
    client.workflow.start<typeof deviceCheck>('deviceCheck', {
      taskQueue: 'admin',
      workflowId: `device-check/${id}-${Date.now()}`,
      args: [{ holdSeconds }],
      workflowExecutionTimeout: '2 minutes',
    });

  beforeAll(async () => {
    ({ address } = sharedTemporal());
    namespace = allocateNamespace();
    sim = await startPhoneSim({ adbPort: 0, controlPort: 0, phones: ['sim-k1', 'sim-k2'] });
    client = new Client({
      dataConverter: temporalDataConverter(),
      connection: await Connection.connect({ address }),
      namespace,
    });
    wfWorker = await startWorkflowWorker(address, namespace, sharedTemporal().workflowBundlePath, {});
    await startA();
  });

  afterAll(async () => {
    await devA?.stop();
    await devB?.stop();
    await wfWorker?.stop();
    await client?.connection.close();
    await sim?.close();
  });

  /** No two claims of the device were ever open at the same time. */
  function expectSerialClaims(rows: ClaimRow[]): void {
    for (let i = 1; i < rows.length; i++) {
      const prev = rows[i - 1]!;
      expect(prev.released_at).not.toBeNull();
      expect(prev.released_at! <= rows[i]!.claimed_at).toBe(true);
    }
  }

  it('lets one of two racing workflows claim the phone; the other waits, then gets the next free phone', async () => {
    const [h1, h2] = await Promise.all([check(3, 'race-1'), check(3, 'race-2')]);
    const claimed = await until('one open claim', () => openClaimA());
    const holder = claimed.workflow_id === h1.workflowId ? h1 : h2;
    const waiter = holder === h1 ? h2 : h1;
    // while the holder holds it, the waiter has no claim anywhere
    await new Promise((r) => setTimeout(r, 1_500));
    expect(claimsA().filter((c) => c.workflow_id === waiter.workflowId)).toEqual([]);
    // a second phone comes up: the waiter gets it, before the holder lets go of the first
    devB = await worker('dev-k2', 'sim-k2', dataB);
    const waited = (await waiter.result()) as DeviceHealth;
    expect(waited.deviceId).toBe('dev-k2');
    const held = (await holder.result()) as DeviceHealth;
    expect(held).toMatchObject({
      deviceId: 'dev-k1',
      serial: 'sim-k1',
      appVersion: '8.17.0',
      appSupported: true,
      screen: { width: 1080, height: 2376 },
    });
    expect(held.counters.adb_round_trips).toBeGreaterThan(0);
    expect(held.counters.taps).toBe(0);
    await devB.stop();
    devB = undefined;

    // one phone only: the second workflow waits for the release, then takes the same phone
    const [h3, h4] = await Promise.all([check(2, 'serial-1'), check(0, 'serial-2')]);
    await Promise.all([h3.result(), h4.result()]);
    const rows = claimsA();
    expect(rows.map((r) => r.workflow_id)).toEqual(expect.arrayContaining([h3.workflowId, h4.workflowId]));
    expectSerialClaims(rows);
  });

  it('refuses a device activity from a workflow that does not own the claim', async () => {
    const h = await check(4, 'owner');
    const open = await until('the claim', () => openClaimA());
    const ledger = ledgerA();
    const ctx = {
      deviceId: 'dev-k1',
      taskQueue: 'device/dev-k1',
      adb: new AdbDevice({ host: '127.0.0.1', port: sim.adbPort, serial: 'sim-k1' }),
      ledger,
      artifacts: new ArtifactStore(tempDataDir('artifacts'), 1),
      timing: DEFAULT_TIMING,
      log: testLogger(),
      onClaimed: () => {},
      onReleased: () => {},
    };
    const claim: DeviceClaim = {
      claim_id: open.claim_id,
      device_id: 'dev-k1',
      task_queue: 'device/dev-k1',
      claimed_at: open.claimed_at,
    };
    try {
      const env = new MockActivityEnvironment({ workflowExecution: { workflowId: 'someone-else', runId: 'r' } });
      await expect(env.run(createDeviceActivities(ctx).deviceHealth, { claim })).rejects.toMatchObject({
        type: 'DEVICE_NOT_CLAIMED',
        nonRetryable: true,
      });
      await expect(env.run(createDeviceActivities(ctx).releaseDevice, { claim })).rejects.toMatchObject({
        type: 'DEVICE_NOT_CLAIMED',
      });
      expect(openClaimA()?.claim_id).toBe(open.claim_id);
    } finally {
      ledger.close();
    }
    await h.result();
  });

  it('keeps the claim across a device-worker restart', async () => {
    const h = await check(5, 'restart');
    await until('the claim', () => openClaimA()?.workflow_id === h.workflowId);
    await devA!.stop();
    await startA();
    const other = await check(0, 'after-restart');
    await new Promise((r) => setTimeout(r, 1_500));
    // the restarted worker knows it is busy: the other workflow has not got the phone
    expect(openClaimA()?.workflow_id).toBe(h.workflowId);
    const health = (await h.result()) as DeviceHealth;
    expect(health.deviceId).toBe('dev-k1');
    await other.result();
    expectSerialClaims(claimsA());
  });

  it('closes the claim of a workflow that was terminated by hand', async () => {
    const h = await check(60, 'terminated');
    await until('the claim', () => openClaimA()?.workflow_id === h.workflowId);
    await h.terminate('test');
    await until('the orphan claim closed', () => claimsA().find((c) => c.workflow_id === h.workflowId)?.released_at);
    const next = await check(0, 'after-terminate');
    expect(((await next.result()) as DeviceHealth).deviceId).toBe('dev-k1');
  });
});
