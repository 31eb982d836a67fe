import { Client, Connection, WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { NativeConnection, Worker } from '@temporalio/worker';
import { ADMIN_TASK_QUEUE, DEVICES_TASK_QUEUE, deviceClaimTaskQueue } from '../../domain/task-queues';
import { sharedTemporal } from '../harness';
import { allocateNamespace } from '../namespaces';
import { CLAIM, DEVICE_QUEUE, keep } from './fake-purchase';
import { temporalDataConverter } from '../../temporal/codec';
import type { collect } from '../../workflows/collect';
import type { deviceCheck } from '../../workflows/device-check';
import type { paymentCheck } from '../../workflows/payment-check';
import type { sybSync } from '../../workflows/syb-sync';
import type { systemCheck } from '../../workflows/system-check';

/**
 * The workflows besides the purchase, with fake activities, each kept as a history for the
 * replay test (./fake-purchase.ts `keep`): every exported workflow type has one.
 */
describe('system check, SYB sync and device check', () => {
  let connection: NativeConnection;
  let client: Client;
  const taskQueue = `wf-other-${process.pid}`;
  const asked: string[] = [];
  let workers: Worker[] = [];
  let running: Promise<void>[] = [];

  beforeAll(async () => {
    const { address, workflowBundlePath } = sharedTemporal();
    const namespace = allocateNamespace();
    connection = await NativeConnection.connect({ address });
    client = new Client({
      dataConverter: temporalDataConverter(),
      connection: await Connection.connect({ address }),
      namespace,
    });
    workers = [
      await Worker.create({
        dataConverter: temporalDataConverter(),
        connection,
        namespace,
        taskQueue,
        workflowBundle: { codePath: workflowBundlePath },
        activities: {
          async recordSystemCheck({ workflowId }: { workflowId: string }) {
            asked.push('recordSystemCheck');
            return { workflow_id: workflowId, db: 'ok' as const, tables: 1, checked_at: '2026-01-01T00:00:00Z' };
          },
          // the payment check's admin side: two tasks of the phone marked paid, one still listed
          async paymentChecksDue() {
            asked.push('paymentChecksDue');
            return {
              checks: [
                { taskId: 't-1', requestedAt: '2026-01-01T00:00:00.000Z' },
                { taskId: 't-2', requestedAt: '2026-01-01T00:00:00.000Z' },
              ],
              target: {
                taskId: 't-1',
                authorizationId: 'a-1',
                goodsId: '1',
                goodsUrl: 'https://mobile.yangkeduo.com/goods.html?goods_id=1',
                options: {},
                quantity: 1,
                maxTotalPriceCent: 100,
                mode: 'live',
                attemptId: 'at-1',
              },
            };
          },
          async recordPaymentCheck(input: { listed: string[] | null }) {
            asked.push(`recordPaymentCheck:${(input.listed ?? []).join(',')}`);
          },
          async syncSybOrders() {
            asked.push('syncSybOrders');
            return { pages: 1, lines: 2, new_lines: 2, from_day: '2026-01-01', to_day: '2026-01-02' };
          },
        },
      }),
      // the collect's admin activities: it asks for them on the admin's queue
      await Worker.create({
        dataConverter: temporalDataConverter(),
        connection,
        namespace,
        taskQueue: ADMIN_TASK_QUEUE,
        activities: {
          async markCollecting() {
            asked.push('markCollecting');
          },
          async saveCollectResult(input: { pddGoodsId: string; result: { goods_id: string; skus: unknown[] } }) {
            asked.push('saveCollectResult');
            // what activities/admin/catalog.ts answers for another goods' result: the row says rejected
            if (input.result.goods_id !== input.pddGoodsId)
              throw ApplicationFailure.nonRetryable('another goods was collected', 'COLLECT_GOODS_MISMATCH');
            return { status: 'collected' as const, skus: input.result.skus.length };
          },
          async markCollectFailed() {
            asked.push('markCollectFailed');
          },
        },
      }),
      await Worker.create({
        dataConverter: temporalDataConverter(),
        connection,
        namespace,
        taskQueue: DEVICES_TASK_QUEUE,
        activities: { claimDevice: async () => CLAIM },
      }),
      // the payment check claims this phone and no other, on its own claim queue
      await Worker.create({
        dataConverter: temporalDataConverter(),
        connection,
        namespace,
        taskQueue: deviceClaimTaskQueue(CLAIM.device_id),
        activities: { claimDevice: async () => CLAIM },
      }),
      await Worker.create({
        dataConverter: temporalDataConverter(),
        connection,
        namespace,
        taskQueue: DEVICE_QUEUE,
        activities: {
          async deviceHealth() {
            asked.push('deviceHealth');
            const counters = { adbRoundTrips: 1, dumps: 1, taps: 0, wallMs: 1 };
            return {
              deviceId: CLAIM.device_id,
              serial: 'stub',
              model: 'stub',
              appVersion: '8.17.0',
              appSupported: true,
              screen: null,
              counters,
            };
          },
          async collectSkus(input: { pddGoodsId: string }) {
            asked.push('collectSkus');
            // goods 2 is the phone landing on another goods' page
            const goodsId = input.pddGoodsId === '2' ? '3' : input.pddGoodsId;
            return { skus_json: { goods_id: goodsId, skus: [{}, {}] }, counters: { adbRoundTrips: 1 } };
          },
          async readPendingOrders() {
            asked.push('readPendingOrders');
            return { orders: [{ orderNo: 'o-1' }], counters: { adbRoundTrips: 1 }, irreversibleActionAt: null };
          },
          async releaseDevice() {
            asked.push('releaseDevice');
            return { released: true };
          },
        },
      }),
    ];
    running = workers.map((w) => w.run());
  });
  afterAll(async () => {
    for (const w of workers) w.shutdown();
    await Promise.allSettled(running);
    await client?.connection.close();
    await connection?.close();
  });

  it('systemCheck records its round trip', async () => {
    const handle = await client.workflow.start<typeof systemCheck>('systemCheck', {
      workflowId: `sc-${process.pid}`,
      taskQueue,
      args: [{ holdSeconds: 0 }],
    });
    expect(await handle.result()).toMatchObject({ db: 'ok' });
    await keep('system-check', handle);
  });

  it('sybSync answers the activity counts', async () => {
    const handle = await client.workflow.start<typeof sybSync>('sybSync', {
      workflowId: `syb-${process.pid}`,
      taskQueue,
      args: [],
    });
    expect(await handle.result()).toMatchObject({ pages: 1 });
    await keep('syb-sync', handle);
  });

  it('deviceCheck claims a phone, reads it and releases it', async () => {
    const handle = await client.workflow.start<typeof deviceCheck>('deviceCheck', {
      workflowId: `dc-${process.pid}`,
      taskQueue,
      args: [{}],
    });
    expect(await handle.result()).toMatchObject({ deviceId: CLAIM.device_id });
    expect(asked).toContain('releaseDevice');
    await keep('device-check', handle);
  });

  it('paymentCheck claims that phone, reads its 待付款 list once for all its tasks, records it, releases it', async () => {
    const handle = await client.workflow.start<typeof paymentCheck>('paymentCheck', {
      workflowId: `pc-${process.pid}`,
      taskQueue,
      args: [{ deviceId: CLAIM.device_id }],
    });
    expect(await handle.result()).toEqual({ checked: 2 });
    expect(asked).toEqual(expect.arrayContaining(['readPendingOrders', 'recordPaymentCheck:o-1']));
    await keep('payment-check', handle);
  });

  // TaskStatus says the collect task row's word (domain/collect-labels.ts), not the goods' `collected`
  it('collect ends with TaskStatus succeeded, as its task row', async () => {
    const handle = await client.workflow.start<typeof collect>('collect', {
      workflowId: `collect-ok-${process.pid}`,
      taskQueue,
      args: [{ pddGoodsId: '1', goodsUrl: 'https://mobile.yangkeduo.com/goods.html?goods_id=1' }],
    });
    expect(await handle.result()).toEqual({ status: 'collected', skus: 2 });
    expect((await handle.describe()).searchAttributes).toMatchObject({ TaskStatus: ['succeeded'] });
    await keep('collect-succeeded', handle);
  });

  it("collect of another goods' page ends with TaskStatus rejected, as its task row", async () => {
    const handle = await client.workflow.start<typeof collect>('collect', {
      workflowId: `collect-rejected-${process.pid}`,
      taskQueue,
      args: [{ pddGoodsId: '2', goodsUrl: 'https://mobile.yangkeduo.com/goods.html?goods_id=2' }],
    });
    const err: unknown = await handle.result().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WorkflowFailedError);
    expect(((err as WorkflowFailedError).cause as ApplicationFailure).type).toBe('COLLECT_GOODS_MISMATCH');
    expect((await handle.describe()).searchAttributes).toMatchObject({ TaskStatus: ['rejected'] });
    await keep('collect-rejected', handle);
  });
});
