import fs from 'node:fs';
import path from 'node:path';
import { Client, Connection, type WorkflowHandle } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { NativeConnection, Worker } from '@temporalio/worker';
import type { DeviceClaim, FinalPanelReading, Observation } from '../../domain/contracts/device-activities';
import type { PendingOrder } from '../../domain/purchase/orders';
import type { PurchaseState, PurchaseWorkflowInput } from '../../domain/purchase/workflow-types';
import { DEVICES_TASK_QUEUE } from '../../domain/task-queues';
import type { purchase } from '../../workflows/purchase';
import { stateQuery } from '../../domain/contracts/purchase-messages';
import { sharedTemporal } from '../harness';
import { allocateNamespace } from '../namespaces';
import { temporalDataConverter } from '../../temporal/codec';
import { decryptHistoryPayloads } from '../../temporal/codec/history';

/**
 * The purchase workflow with fake activities (the samples' mutex/expense style): the real bundle
 * on the real Temporal server, every admin and phone activity a function the test scripts. With
 * CMAUTOBUY_RECORD_HISTORIES=1 a test's `keep(name, handle)` also writes the workflow's history to
 * test/histories/<name>.json, which the replay test replays (docs/versioning.md).
 */

export const READING: FinalPanelReading = {
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

export const DEVICE_QUEUE = 'device/stub-phone';

export interface Script {
  /** the admin activity that fails for good, and with which type */
  failing?: { activity: string; type: string };
  /** the write of this status fails for good */
  failingStatus?: string;
  /** the admin activity that fails every time with an error a retry might heal (an outage) */
  flaky?: string;
  /** the claim claimDevice answers (another phone's queue) */
  claim?: DeviceClaim;
  /** runs before the fence answers (a phone host that goes away right then) */
  beforeFence?: () => Promise<void>;
  /** claimDevice answers once this settles */
  claimGate?: Promise<void>;
  /** the phone host refuses every release with an error a retry might heal (it is gone) */
  releaseFails?: boolean;
  fence?: { clickPermitted: true; submissionId: string } | { clickPermitted: false; reason: string; detail: string };
  /** what the phone read at the final panel (the workflow judges it again) */
  reading?: FinalPanelReading;
  /** submitOnce fails (a tap refused late, or a lost phone): the outcome is unknown */
  submitFails?: string;
  observation?: Observation;
  observeFails?: string;
  pending?: PendingOrder[];
  pendingFails?: string;
  /** readPendingOrders waits for this before it answers */
  pendingGate?: Promise<void>;
  /** the ledger's irreversible_action_at readPendingOrders reports (unset: a phone host from before, none) */
  irreversibleActionAt?: string;
}

/** What the fake activities were asked, in order. */
export interface Calls {
  statuses: string[];
  /** the reason code of each status write (null without one) */
  reasons: (string | null)[];
  activities: string[];
}

export const CLAIM: DeviceClaim = {
  claim_id: 'claim-1',
  device_id: 'stub-phone',
  task_queue: DEVICE_QUEUE,
  claimed_at: '2026-01-01T00:00:00Z',
};

const counters = { adbRoundTrips: 0, dumps: 0, taps: 0, wallMs: 0 };

/** `bundlePath`: another bundle than the production one (the old branch of a patch, say). */
export function fakePurchaseRig(name: string, opts: { bundlePath?: () => string } = {}) {
  const rig = {
    script: {} as Script,
    calls: { statuses: [], reasons: [], activities: [] } as Calls,
    client: undefined as unknown as Client,
    namespace: '',
    taskQueue: `wf-${name}-${process.pid}`,
  };
  let connection: NativeConnection;
  let workers: Worker[] = [];
  let running: Promise<void>[] = [];
  let owned = true;

  const asked = (activity: string) => {
    rig.calls.activities.push(activity);
    const f = rig.script.failing;
    if (f?.activity === activity) throw ApplicationFailure.nonRetryable(`${activity} failed for good`, f.type);
    if (rig.script.flaky === activity) throw ApplicationFailure.retryable(`${activity}: the admin DB is away`);
  };

  const adminActivities = {
    async recordPurchaseStatus(input: { to: string; reasonCode?: string | null }) {
      asked('recordPurchaseStatus');
      if (rig.script.failingStatus === input.to)
        throw ApplicationFailure.nonRetryable(`writing ${input.to} failed for good`, 'ILLEGAL_TRANSITION');
      rig.calls.statuses.push(input.to);
      rig.calls.reasons.push(input.reasonCode ?? null);
    },
    async beginPurchaseAttempt() {
      asked('beginPurchaseAttempt');
      return { attemptId: 'attempt-1', deviceName: '测试手机 1' };
    },
    /** the attempt, CLAIMED and ORDERING in one activity: asked as its parts, which may fail alone */
    async beginOrdering() {
      asked('beginOrdering');
      const begun = await adminActivities.beginPurchaseAttempt();
      await adminActivities.recordPurchaseStatus({ to: 'CLAIMED' });
      await adminActivities.recordPurchaseStatus({ to: 'ORDERING' });
      return begun;
    },
    async recordAttemptProgress() {
      asked('recordAttemptProgress');
    },
    async createSubmissionFence() {
      asked('createSubmissionFence');
      await rig.script.beforeFence?.();
      return rig.script.fence ?? { clickPermitted: true, submissionId: 'submission-1' };
    },
    async abandonUntappedFence() {
      asked('abandonUntappedFence');
    },
    async recordSubmissionTapped() {
      asked('recordSubmissionTapped');
    },
    async recordSubmissionOutcome() {
      asked('recordSubmissionOutcome');
    },
    async savePurchaseResult() {
      asked('savePurchaseResult');
    },
  };

  const phoneActivities = {
    async preparePurchase() {
      rig.calls.activities.push('preparePurchase');
      return { ok: true as const, reading: rig.script.reading ?? READING, evidenceIds: [], counters };
    },
    async submitOnce() {
      rig.calls.activities.push('submitOnce');
      if (rig.script.submitFails) throw ApplicationFailure.nonRetryable(rig.script.submitFails, 'SUBMIT_REFUSED');
      return { tappedAt: new Date().toISOString().slice(0, 19) + 'Z', counters: { ...counters, taps: 1 } };
    },
    async observeAfterSubmit() {
      rig.calls.activities.push('observeAfterSubmit');
      if (rig.script.observeFails) throw ApplicationFailure.nonRetryable(rig.script.observeFails, 'DEVICE_ERROR');
      const seen = rig.script.observation ?? {
        outcome: 'pending_payment' as const,
        orderNo: 'PO-1',
        orderedAtRaw: '2026-01-01 08:00:00',
        orderedAt: '2026-01-01T00:00:00Z',
      };
      return { ...seen, evidenceIds: [] };
    },
    async readPendingOrders() {
      rig.calls.activities.push('readPendingOrders');
      await rig.script.pendingGate;
      if (rig.script.pendingFails) throw ApplicationFailure.nonRetryable(rig.script.pendingFails, 'DEVICE_ERROR');
      const ledger = rig.script.irreversibleActionAt;
      return { orders: rig.script.pending ?? [], counters, ...(ledger ? { irreversibleActionAt: ledger } : {}) };
    },
    async releaseDevice() {
      rig.calls.activities.push('releaseDevice');
      if (rig.script.releaseFails) throw ApplicationFailure.retryable('the phone host does not answer');
      return { released: true };
    },
  };

  /** On the shared dev server, or on `env` (a time-skipping test server) when given. */
  async function setUp(env?: { nativeConnection: NativeConnection; client: Client; namespace: string }): Promise<void> {
    const { address, workflowBundlePath } = sharedTemporal();
    if (env) {
      rig.namespace = env.namespace;
      connection = env.nativeConnection;
      rig.client = env.client;
    } else {
      rig.namespace = allocateNamespace();
      connection = await NativeConnection.connect({ address });
      rig.client = new Client({
        dataConverter: temporalDataConverter(),
        connection: await Connection.connect({ address }),
        namespace: rig.namespace,
      });
    }
    owned = !env;
    const ns = rig.namespace;
    workers = [
      await Worker.create({
        dataConverter: temporalDataConverter(),
        connection,
        namespace: ns,
        taskQueue: rig.taskQueue,
        workflowBundle: { codePath: opts.bundlePath?.() ?? workflowBundlePath },
        activities: adminActivities,
      }),
      await Worker.create({
        dataConverter: temporalDataConverter(),
        connection,
        namespace: ns,
        taskQueue: DEVICES_TASK_QUEUE,
        activities: {
          claimDevice: async () => {
            await rig.script.claimGate;
            return rig.script.claim ?? CLAIM;
          },
        },
      }),
      await Worker.create({
        dataConverter: temporalDataConverter(),
        connection,
        namespace: ns,
        taskQueue: DEVICE_QUEUE,
        activities: phoneActivities,
      }),
    ];
    running = workers.map((w) =>
      w.run().catch((err: unknown) => {
        console.error(`fake worker ${w.options.taskQueue} stopped: ${String(err)}`);
      }),
    );
  }

  async function tearDown(): Promise<void> {
    for (const w of workers) if (w.getState() === 'RUNNING') w.shutdown();
    await Promise.allSettled(running);
    if (!owned) return;
    await rig.client?.connection.close();
    await connection?.close();
  }

  /** A second phone host for `queue` with the same fake activities (a phone that comes back). */
  async function phoneOn(queue: string): Promise<{ worker: Worker; stopped: Promise<void> }> {
    const worker = await Worker.create({
      dataConverter: temporalDataConverter(),
      connection,
      namespace: rig.namespace,
      taskQueue: queue,
      activities: phoneActivities,
    });
    workers.push(worker);
    const stopped = worker.run();
    running.push(stopped);
    return { worker, stopped };
  }

  function reset(): void {
    rig.script = {};
    rig.calls = { statuses: [], reasons: [], activities: [] };
  }

  let n = 0;
  async function start(over: Partial<PurchaseWorkflowInput> = {}): Promise<WorkflowHandle> {
    const id = `purchase/${name}-${process.pid}-${++n}/auth`;
    const input: PurchaseWorkflowInput = {
      taskId: `t-${n}`,
      authorizationId: `a-${n}`,
      goodsId: '937122477375',
      goodsUrl: 'https://mobile.yangkeduo.com/goods.html?goods_id=937122477375',
      options: READING.options,
      quantity: 1,
      maxTotalPriceCent: 2000,
      mode: 'live',
      expiresAt: new Date(Date.now() + 600_000).toISOString(),
      ...over,
    };
    return rig.client.workflow.start<typeof purchase>('purchase', {
      workflowId: id,
      taskQueue: rig.taskQueue,
      args: [input],
    });
  }

  return { rig, setUp, tearDown, reset, start, phoneOn, phoneActivities };
}

/** Polls the workflow's own state (a query, not the clock) until it shows `status`. */
export async function stateOf(handle: WorkflowHandle, status: string): Promise<PurchaseState> {
  for (;;) {
    const s = await handle.query(stateQuery);
    if (s.status === status) return s;
    const d = await handle.describe();
    if (d.status.name !== 'RUNNING')
      throw new Error(`workflow ${d.status.name} while waiting for ${status} (state ${s.status})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Waits for what the fake activities were asked: the workflow's state moves before its write. */
export async function until(asked: () => boolean): Promise<void> {
  while (!asked()) await new Promise((r) => setTimeout(r, 50));
}

export function pendingOrder(orderNo: string): PendingOrder {
  return {
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
  };
}

/**
 * With CMAUTOBUY_RECORD_HISTORIES=1: once the workflow is closed, or parked with nothing left to
 * run, its history goes to test/histories/<name>.json. Otherwise nothing.
 */
export async function keep(name: string, handle: WorkflowHandle): Promise<void> {
  if (!process.env.CMAUTOBUY_RECORD_HISTORIES) return;
  let quiet = 0;
  while (quiet < 3) {
    const d = await handle.describe();
    const idle =
      d.status.name !== 'RUNNING' || (!d.raw.pendingWorkflowTask && (d.raw.pendingActivities ?? []).length === 0);
    quiet = idle ? quiet + 1 : 0;
    await new Promise((r) => setTimeout(r, 200));
  }
  // decrypted: a recorded history must replay under any later run's key (temporal/codec/history.ts)
  const history = await decryptHistoryPayloads(await handle.fetchHistory());
  const file = path.join(__dirname, '..', 'histories', `${name}.json`);
  fs.writeFileSync(file, `${JSON.stringify(JSON.parse(historyToJSON(history)), null, 1)}\n`);
}
