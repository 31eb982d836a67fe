import { NativeConnection, Worker } from '@temporalio/worker';
import type { CatalogCollectActivities } from '../../activities/admin/catalog-contract';
import type { SkusJson } from '../../domain/collect';
import { startDeviceWorker, type DeviceWorkerHandle, type DeviceWorkerOptions } from '../../workers/device';
import { testLogger } from '../harness';
import { temporalDataConverter } from '../../temporal/codec';

export interface CollectRecord {
  collecting: { pddGoodsId: string; deviceId: string }[];
  saved: { pddGoodsId: string; result: SkusJson; counters?: Record<string, unknown> }[];
  failed: { pddGoodsId: string; code: string; message: string; artifactPath?: string | null }[];
}

/** The admin's catalog activities as an in-memory fake: the device side is what is tested here. */
export function fakeCatalog(): { activities: CatalogCollectActivities; record: CollectRecord } {
  const record: CollectRecord = { collecting: [], saved: [], failed: [] };
  return {
    record,
    activities: {
      async markCollecting(i) {
        record.collecting.push({ pddGoodsId: i.pddGoodsId, deviceId: i.deviceId });
      },
      async saveCollectResult(i) {
        record.saved.push({ pddGoodsId: i.pddGoodsId, result: i.result, counters: i.counters });
        return { status: 'collected', skus: i.result.skus.length };
      },
      async markCollectFailed(i) {
        record.failed.push(i);
      },
    },
  };
}

/** The `admin` queue of this test's namespace: the real workflow bundle, fake admin activities. */
export async function startWorkflowWorker(
  address: string,
  namespace: string,
  bundlePath: string,
  activities: object,
): Promise<{ stop(): Promise<void> }> {
  const connection = await NativeConnection.connect({ address });
  const worker = await Worker.create({
    dataConverter: temporalDataConverter(),
    connection,
    namespace,
    taskQueue: 'admin',
    workflowBundle: { codePath: bundlePath },
    activities,
  });
  const running = worker.run();
  return {
    async stop() {
      worker.shutdown();
      await running;
      await connection.close();
    },
  };
}

/** Quick settles: the sim's `zero` latency has no settle time, only counted loading dumps. */
export const FAST_TIMING = { navigationSettleMs: 100, tapSettleMs: 0, swipeSettleMs: 0, loadingPollMs: 100 };

export async function deviceWorker(
  opts: Omit<DeviceWorkerOptions, 'log'> & { log?: DeviceWorkerOptions['log'] },
): Promise<DeviceWorkerHandle> {
  const h = await startDeviceWorker({ log: testLogger('device-worker'), claimCheckIntervalMs: 1_000, ...opts });
  await h.ready;
  return h;
}

export async function until<T>(
  what: string,
  fn: () => Promise<T | undefined | null | false> | T | undefined | null | false,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
