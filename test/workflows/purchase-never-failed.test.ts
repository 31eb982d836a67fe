import { Client, Connection } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { NativeConnection, Worker } from '@temporalio/worker';
import type { DeviceClaim, FinalPanelReading, Observation } from '../../domain/contracts/device-activities';
import type { PendingOrder } from '../../domain/purchase/orders';
import type { PurchaseState, PurchaseWorkflowInput } from '../../domain/purchase/workflow-types';
import { DEVICES_TASK_QUEUE } from '../../domain/task-queues';
import {
  cancelUpdate,
  markPaidUpdate,
  resetUpdate,
  resolveReconciliationUpdate,
  stateQuery,
} from '../../workflows/purchase-messages';
import { sharedTemporal } from '../harness';
import { allocateNamespace } from '../namespaces';
import { temporalDataConverter } from '../../temporal/codec';

/**
 * The purchase workflow with fake activities (the samples' mutex/expense style): the real bundle
 * on the real Temporal server, every admin and phone activity a function this test controls. An
 * admin activity failing for good never fails the workflow: before the fence's yes the task
 * stops in NEEDS_MANUAL with its reason, after it it waits in 待核对 for the operator.
 */

const READING: FinalPanelReading = {
  options: { 颜色分类: '黑色', 尺码: 'M' },
  quantityRead: 1,
  gate1UnitPriceCent: 1288,
  gate1RawPrice: '¥12.88',
  gate2PanelTotalCent: 1288,
  gate3SubmitAmountCent: 1288,
  title: '黑色T恤',
  shopName: '店',
  appVersion: '8.17.0',
};

const DEVICE_QUEUE = 'device/stub-phone';

interface Script {
  /** the admin activity that fails for good, and with which type */
  failing?: { activity: string; type: string };
  fence?: { clickPermitted: true; submissionId: string } | { clickPermitted: false; reason: string; detail: string };
  observation?: Observation;
  pending?: PendingOrder[];
}

/** What the fake activities were asked, in order. */
interface Calls {
  statuses: string[];
  activities: string[];
}

describe('purchase workflow: never Failed, never stuck', () => {
  let namespace: string;
  let connection: NativeConnection;
  let client: Client;
  let script: Script = {};
  let calls: Calls = { statuses: [], activities: [] };
  let workers: Worker[] = [];
  let running: Promise<void>[] = [];
  const taskQueue = `wf-never-${process.pid}`;

  const fail = (name: string) => {
    calls.activities.push(name);
    if (script.failing?.activity === name)
      throw ApplicationFailure.nonRetryable(`${name} failed for good`, script.failing.type);
  };

  const adminActivities = {
    async recordPurchaseStatus(input: { to: string }) {
      fail('recordPurchaseStatus');
      calls.statuses.push(input.to);
    },
    async beginPurchaseAttempt() {
      fail('beginPurchaseAttempt');
      return { attemptId: 'attempt-1' };
    },
    async recordAttemptProgress() {
      fail('recordAttemptProgress');
    },
    async createSubmissionFence() {
      fail('createSubmissionFence');
      return script.fence ?? { clickPermitted: true, submissionId: 'submission-1' };
    },
    async abandonUntappedFence() {
      fail('abandonUntappedFence');
    },
    async recordSubmissionTapped() {
      fail('recordSubmissionTapped');
    },
    async recordSubmissionOutcome() {
      fail('recordSubmissionOutcome');
    },
    async savePurchaseResult() {
      fail('savePurchaseResult');
    },
  };

  const claim: DeviceClaim = {
    claim_id: 'claim-1',
    device_id: 'stub-phone',
    task_queue: DEVICE_QUEUE,
    claimed_at: '2026-01-01T00:00:00Z',
  };
  const phoneActivities = {
    async preparePurchase() {
      calls.activities.push('preparePurchase');
      return {
        ok: true as const,
        reading: READING,
        evidenceIds: [],
        counters: { adbRoundTrips: 0, dumps: 0, taps: 0, wallMs: 0 },
      };
    },
    async submitOnce() {
      calls.activities.push('submitOnce');
      return {
        tappedAt: new Date().toISOString().slice(0, 19) + 'Z',
        counters: { adbRoundTrips: 0, dumps: 0, taps: 1, wallMs: 0 },
      };
    },
    async observeAfterSubmit() {
      calls.activities.push('observeAfterSubmit');
      return {
        ...(script.observation ?? {
          outcome: 'pending_payment',
          orderNo: 'PO-1',
          orderedAtRaw: '2026-01-01 08:00:00',
          orderedAt: '2026-01-01T00:00:00Z',
        }),
        evidenceIds: [],
      };
    },
    async readPendingOrders() {
      calls.activities.push('readPendingOrders');
      return { orders: script.pending ?? [], counters: { adbRoundTrips: 0, dumps: 0, taps: 0, wallMs: 0 } };
    },
    async releaseDevice() {
      calls.activities.push('releaseDevice');
      return { released: true };
    },
  };

  beforeAll(async () => {
    namespace = allocateNamespace();
    const { address, workflowBundlePath } = sharedTemporal();
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
        activities: adminActivities,
      }),
      await Worker.create({
        dataConverter: temporalDataConverter(),
        connection,
        namespace,
        taskQueue: DEVICES_TASK_QUEUE,
        activities: { claimDevice: async () => claim },
      }),
      await Worker.create({
        dataConverter: temporalDataConverter(),
        connection,
        namespace,
        taskQueue: DEVICE_QUEUE,
        activities: phoneActivities,
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
  beforeEach(() => {
    script = {};
    calls = { statuses: [], activities: [] };
  });

  let n = 0;
  const start = async () => {
    const id = `purchase/never-${process.pid}-${++n}/auth`;
    const input: PurchaseWorkflowInput = {
      taskId: `t-${n}`,
      authorizationId: `a-${n}`,
      goodsId: '937122477375',
      goodsUrl: 'https://mobile.yangkeduo.com/goods.html?goods_id=937122477375',
      options: READING.options,
      quantity: 1,
      capCent: 2000,
      mode: 'live',
      expiresAt: new Date(Date.now() + 600_000).toISOString(),
    };
    return client.workflow.start('purchase', { workflowId: id, taskQueue, args: [input] });
  };

  /** Polls the workflow's own state (a query, not the clock) until it shows `status`. */
  const stateOf = async (handle: Awaited<ReturnType<typeof start>>, status: string): Promise<PurchaseState> => {
    for (;;) {
      const s = await handle.query(stateQuery);
      if (s.status === status) return s;
      const d = await handle.describe();
      if (d.status.name !== 'RUNNING')
        throw new Error(`workflow ${d.status.name} while waiting for ${status} (state ${s.status})`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  /** Waits for what the fake activities were asked: the workflow's state moves before its write. */
  const until = async (asked: () => boolean) => {
    while (!asked()) await new Promise((r) => setTimeout(r, 50));
  };

  it('an admin activity failing for good before the fence → NEEDS_MANUAL with its reason, running; reset ends it in DRAFT', async () => {
    script.failing = { activity: 'recordAttemptProgress', type: 'PURCHASE_RESULT_INVALID' };
    const handle = await start();
    const s = await stateOf(handle, 'NEEDS_MANUAL');
    expect(s.reasonCode).toBe('ADMIN_STEP_FAILED');
    expect((await handle.describe()).status.name).toBe('RUNNING');
    expect(calls.activities).not.toContain('createSubmissionFence');
    expect(calls.activities).not.toContain('submitOnce');
    await handle.executeUpdate(resetUpdate, { args: [{ actor: 'op' }] });
    expect(await handle.result()).toBe('DRAFT');
    expect(calls.statuses).toEqual(['CLAIMED', 'ORDERING', 'NEEDS_MANUAL', 'DRAFT']);
  });

  it('an admin activity failing for good after the fence → 待核对, running; the operator resolves and marks paid → SUCCEEDED', async () => {
    script.failing = { activity: 'savePurchaseResult', type: 'PURCHASE_RESULT_INVALID' };
    const handle = await start();
    const s = await stateOf(handle, 'RECONCILIATION_REQUIRED');
    expect(s.reasonCode).toBe('AFTER_FENCE_STEP_FAILED');
    expect((await handle.describe()).status.name).toBe('RUNNING');
    expect(calls.activities.filter((a) => a === 'submitOnce')).toHaveLength(1);
    script.failing = undefined;
    await handle.executeUpdate(resolveReconciliationUpdate, {
      args: [{ actor: 'op', outcome: 'created', orderNo: 'PO-1' }],
    });
    await stateOf(handle, 'WAITING_PAYMENT');
    await handle.executeUpdate(markPaidUpdate, { args: [{ actor: 'op' }] });
    expect(await handle.result()).toBe('SUCCEEDED');
    expect(calls.activities.filter((a) => a === 'submitOnce')).toHaveLength(1);
  });

  it('the write of 待核对 itself failing for good: the workflow still waits for the operator and asks again when a write of the answer fails', async () => {
    script.failing = { activity: 'recordSubmissionOutcome', type: 'ILLEGAL_TRANSITION' };
    script.observation = { outcome: 'unknown', orderNo: null, orderedAtRaw: null };
    const handle = await start();
    await stateOf(handle, 'RECONCILIATION_REQUIRED');
    const outcomeWrites = () => calls.activities.filter((a) => a === 'recordSubmissionOutcome').length;
    expect(outcomeWrites()).toBe(1);
    // the answer cannot be written: the workflow does not end, it asks again
    await handle.executeUpdate(resolveReconciliationUpdate, { args: [{ actor: 'op', outcome: 'not_created' }] });
    while (outcomeWrites() < 2) await new Promise((r) => setTimeout(r, 50));
    script.failing = undefined;
    // the validator takes a new answer once the failed one is forgotten
    for (;;) {
      const sent = await handle
        .executeUpdate(resolveReconciliationUpdate, { args: [{ actor: 'op', outcome: 'not_created' }] })
        .then(
          () => true,
          () => false,
        );
      if (sent) break;
      expect((await handle.describe()).status.name).toBe('RUNNING');
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(await handle.result()).toBe('FAILED');
  });

  it('a revoked device gets no attempt: NEEDS_MANUAL DEVICE_REVOKED, no fence, no tap; the operator cancels it', async () => {
    script.failing = { activity: 'beginPurchaseAttempt', type: 'DEVICE_REVOKED' };
    const handle = await start();
    const s = await stateOf(handle, 'NEEDS_MANUAL');
    expect(s.reasonCode).toBe('DEVICE_REVOKED');
    await until(() => calls.activities.includes('releaseDevice'));
    expect(calls.statuses).toEqual(['NEEDS_MANUAL']);
    expect(calls.activities).not.toContain('preparePurchase');
    expect(calls.activities).not.toContain('createSubmissionFence');
    expect(calls.activities).toContain('releaseDevice');
    await handle.executeUpdate(cancelUpdate, { args: [{ actor: 'op' }] });
    expect(await handle.result()).toBe('CANCELED');
    expect(calls.statuses).toEqual(['NEEDS_MANUAL', 'CANCELED']);
  });

  it('a fence refused for a revoked device: NEEDS_MANUAL DEVICE_REVOKED, no tap', async () => {
    script.fence = { clickPermitted: false, reason: 'DEVICE_REVOKED', detail: 'device stub-phone is REVOKED' };
    const handle = await start();
    const s = await stateOf(handle, 'NEEDS_MANUAL');
    expect(s.reasonCode).toBe('DEVICE_REVOKED');
    expect(calls.activities).not.toContain('submitOnce');
    await handle.executeUpdate(resetUpdate, { args: [{ actor: 'op' }] });
    expect(await handle.result()).toBe('DRAFT');
  });

  const order = (orderNo: string): PendingOrder => ({
    orderNo,
    goodsId: '937122477375',
    title: READING.title,
    options: READING.options,
    optionsText: '黑色；M',
    quantity: 1,
    amountCent: 1288,
    placedAtRaw: null,
    placedAt: new Date().toISOString().slice(0, 19) + 'Z',
    status: '待付款',
  });

  it.each([
    { name: 'zero', pending: [] as PendingOrder[] },
    { name: 'two', pending: [order('PO-A'), order('PO-B')] },
  ])('the cashier with $name candidate orders → 待核对 ORDER_NOT_MATCHED, never 待付款', async ({ pending }) => {
    script.observation = { outcome: 'pending_payment', orderNo: null, orderedAtRaw: null };
    script.pending = pending;
    const handle = await start();
    const s = await stateOf(handle, 'RECONCILIATION_REQUIRED');
    expect(s.reasonCode).toBe('ORDER_NOT_MATCHED');
    await until(() => calls.activities.includes('readPendingOrders'));
    expect(calls.statuses).not.toContain('WAITING_PAYMENT');
    await handle.executeUpdate(resolveReconciliationUpdate, { args: [{ actor: 'op', outcome: 'not_created' }] });
    expect(await handle.result()).toBe('FAILED');
  });

  it('two mark-paid updates with one update id: one transition, the same answer', async () => {
    const handle = await start();
    await stateOf(handle, 'WAITING_PAYMENT');
    const send = () =>
      handle.executeUpdate(markPaidUpdate, {
        updateId: 'mark-paid-once',
        args: [{ actor: 'op', requestId: 'mark-paid-once' }],
      });
    const answers = await Promise.allSettled([send(), send()]);
    expect(answers.map((a) => a.status)).toEqual(['fulfilled', 'fulfilled']);
    expect(await handle.result()).toBe('SUCCEEDED');
    expect(calls.statuses.filter((s) => s === 'SUCCEEDED')).toHaveLength(1);
  });
});
