import { Context } from '@temporalio/activity';
import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import type { DeviceClaim, FinalPanelReading } from '../../domain/contracts/device-activities';
import type { PurchaseWorkflowInput } from '../../domain/purchase/workflow-types';
import type { purchase } from '../../workflows/purchase';
import { cancelUpdate, holdsClaimQuery, stateQuery } from '../../domain/contracts/purchase-messages';
import { allocateNamespace } from '../namespaces';
import { sharedTemporal } from '../harness';
import { temporalDataConverter } from '../../temporal/codec';

/**
 * The purchase workflow (production bundle) against stubbed activities: what each timeout of a
 * phone step and the operator's cancel do to a purchase. On the shared dev server, not the
 * time-skipping one, which has no search attributes: the timeouts take their real time (the
 * heartbeat timeout, submitOnce's minute), so the tests run concurrently, each purchase in its
 * own namespace. The real-stack counterparts (a real phone host
 * killed, a real cancel on the simulator) are in test/purchase/crash-heartbeat.test.ts.
 */
describe('purchase workflow: heartbeats, timeouts and cancel (stubbed activities)', () => {
  // Connected on first use, not in beforeAll: concurrent tests may start before hooks run.
  let connected: Promise<{ connection: Connection; nativeConnection: NativeConnection }> | null = null;
  const connect = () =>
    (connected ??= (async () => {
      const { address } = sharedTemporal();
      return {
        connection: await Connection.connect({ address }),
        nativeConnection: await NativeConnection.connect({ address }),
      };
    })());
  afterAll(async () => {
    const env = await connected;
    await env?.connection.close();
    await env?.nativeConnection.close();
  });

  const READING: FinalPanelReading = {
    appVersion: '8.17.0',
    title: 'T恤',
    shopName: '店',
    options: { 颜色分类: '黑色', 尺码: 'M' },
    quantityRead: 1,
    gate1UnitPriceCent: 1000,
    gate1RawPrice: '¥10',
    gate2PanelTotalCent: 1000,
    gate3SubmitAmountCent: 1000,
  };

  /** A phone step that cost nothing, and a prepare that reached the final panel. */
  const NO_COST = { adbRoundTrips: 0, dumps: 0, taps: 0, wallMs: 0 };
  const PREPARED = { ok: true, reading: READING, evidenceIds: [], counters: NO_COST };

  let n = 0;
  /** One purchase with its own device queue; the stubs record every call by name. */
  function rig(
    device: Partial<
      Record<
        'preparePurchase' | 'submitOnce' | 'observeAfterSubmit' | 'readPendingOrders',
        (input: unknown) => Promise<unknown>
      >
    > = {},
    opts: { noPhone?: boolean; expiresInMs?: number; fence?: () => Promise<void> } = {},
  ) {
    n += 1;
    const id = `hb-${n}`;
    // a namespace each: the workflow's admin and claim queues have fixed names
    const ns = allocateNamespace();
    const queue = `device/${id}`;
    const calls: { name: string; input: unknown }[] = [];
    // one driver per phone, as the device worker's gate keeps it: the release waits for a running prepare
    let phoneFree: Promise<unknown> = Promise.resolve();
    const statuses: { to: string; reasonCode?: string | null }[] = [];
    const claim: DeviceClaim = {
      claim_id: `claim-${id}`,
      device_id: id,
      task_queue: queue,
      claimed_at: '2026-01-01T00:00:00Z',
    };
    const record = (name: string) => async (input: unknown) => void calls.push({ name, input });
    const admin = {
      async recordPurchaseStatus(input: { to: string; reasonCode?: string | null }) {
        calls.push({ name: 'recordPurchaseStatus', input });
        statuses.push({ to: input.to, reasonCode: input.reasonCode ?? null });
      },
      async beginPurchaseAttempt() {
        return { attemptId: `att-${id}` };
      },
      // the attempt, CLAIMED and ORDERING in one (docs/versioning.md, `held-progress-in-one`)
      async beginOrdering() {
        for (const to of ['CLAIMED', 'ORDERING']) statuses.push({ to, reasonCode: null });
        return { attemptId: `att-${id}` };
      },
      recordAttemptProgress: record('recordAttemptProgress'),
      async createSubmissionFence() {
        calls.push({ name: 'createSubmissionFence', input: null });
        await opts.fence?.();
        return { clickPermitted: true, submissionId: `sub-${id}`, detail: 'ok' };
      },
      abandonUntappedFence: record('abandonUntappedFence'),
      recordSubmissionTapped: record('recordSubmissionTapped'),
      recordSubmissionOutcome: record('recordSubmissionOutcome'),
      savePurchaseResult: record('savePurchaseResult'),
    };
    const claims = {
      async claimDevice() {
        if (opts.noPhone) throw ApplicationFailure.create({ type: 'DEVICE_BUSY', message: 'no idle phone' });
        return claim;
      },
    };
    const phone = {
      async preparePurchase(input: unknown) {
        calls.push({ name: 'preparePurchase', input });
        if (device.preparePurchase) {
          const running = device.preparePurchase(input);
          phoneFree = running.catch(() => undefined);
          return running;
        }
        return PREPARED;
      },
      async submitOnce(input: unknown) {
        calls.push({ name: 'submitOnce', input });
        if (device.submitOnce) return device.submitOnce(input);
        return { tappedAt: '2026-01-01T00:00:01Z', counters: { adbRoundTrips: 0, dumps: 0, taps: 1, wallMs: 0 } };
      },
      async observeAfterSubmit(input: unknown) {
        calls.push({ name: 'observeAfterSubmit', input });
        if (device.observeAfterSubmit) return device.observeAfterSubmit(input);
        return {
          outcome: 'pending_payment',
          orderNo: '250101-1',
          orderedAtRaw: null,
          evidenceIds: [],
          counters: NO_COST,
        };
      },
      async readPendingOrders(input: unknown) {
        calls.push({ name: 'readPendingOrders', input });
        if (device.readPendingOrders) return device.readPendingOrders(input);
        return { orders: [], counters: NO_COST };
      },
      releaseDevice: async (input: unknown) => {
        await phoneFree;
        calls.push({ name: 'releaseDevice', input });
        return { released: true };
      },
    };
    const input: PurchaseWorkflowInput = {
      taskId: `task-${id}`,
      authorizationId: `auth-${id}`,
      goodsId: '937122477375',
      goodsUrl: 'https://mobile.yangkeduo.com/goods.html?goods_id=937122477375',
      options: { 颜色分类: '黑色', 尺码: 'M' },
      quantity: 1,
      maxTotalPriceCent: 2000,
      mode: 'live',
      expiresAt: new Date(Date.now() + (opts.expiresInMs ?? (opts.noPhone ? 5_000 : 3_600_000))).toISOString(),
    };
    const bundle = { codePath: sharedTemporal().workflowBundlePath };
    const workers = async () => {
      const { nativeConnection } = await connect();
      const adminW = await Worker.create({
        dataConverter: temporalDataConverter(),
        connection: nativeConnection,
        namespace: ns,
        taskQueue: 'admin',
        workflowBundle: bundle,
        activities: admin,
      });
      const claimW = await Worker.create({
        dataConverter: temporalDataConverter(),
        connection: nativeConnection,
        namespace: ns,
        taskQueue: 'devices',
        activities: claims,
      });
      // heartbeats reach the server as often as the device worker sends them (device-worker/runtime/reconnect.ts)
      const phoneW = await Worker.create({
        dataConverter: temporalDataConverter(),
        connection: nativeConnection,
        namespace: ns,
        taskQueue: queue,
        activities: phone,
        maxHeartbeatThrottleInterval: '2 seconds',
      });
      return { adminW, claimW, phoneW };
    };
    const start = async () =>
      new Client({
        dataConverter: temporalDataConverter(),
        connection: (await connect()).connection,
        namespace: ns,
      }).workflow.start<typeof purchase>('purchase', {
        taskQueue: 'admin',
        workflowId: `purchase/${id}`,
        args: [input],
      });
    const names = () => calls.map((c) => c.name);
    return { id, calls, statuses, names, workers, start, input };
  }

  /** Runs all three workers until `fn` is done. */
  async function withWorkers<T>(
    w: { adminW: Worker; claimW: Worker; phoneW: Worker },
    fn: () => Promise<T>,
  ): Promise<T> {
    return w.adminW.runUntil(w.claimW.runUntil(w.phoneW.runUntil(fn)));
  }

  it.concurrent(
    'cancel during prepare: the running prepare receives the cancel, the purchase ends CANCELED, the phone is released, nothing is fenced',
    async () => {
      let cancelled: (reason: string) => void = () => {};
      const sawCancel = new Promise<string>((r) => (cancelled = r));
      let preparing: () => void = () => {};
      const started = new Promise<void>((r) => (preparing = r));
      const r = rig({
        async preparePurchase() {
          const ctx = Context.current();
          preparing();
          // a prepare that heartbeats per dump, as the device session does, until it is cancelled
          for (;;) {
            ctx.heartbeat();
            if (ctx.cancellationSignal.aborted) {
              cancelled(String(ctx.cancellationSignal.reason));
              throw new CancelledFailure('cancelled at a safe point');
            }
            await new Promise((res) => setTimeout(res, 50));
          }
        },
      });
      const w = await r.workers();
      const status = await withWorkers(w, async () => {
        const h = await r.start();
        await started;
        await h.executeUpdate(cancelUpdate, { args: [{ actor: 'op' }] });
        expect(await sawCancel).toMatch(/CANCELLED/);
        return h.result();
      });
      expect(status).toBe('CANCELED');
      expect(r.statuses.at(-1)).toEqual({ to: 'CANCELED', reasonCode: 'CANCELED_BY_OPERATOR' });
      expect(r.names()).toContain('releaseDevice');
      expect(r.names()).not.toContain('createSubmissionFence');
      expect(r.names()).not.toContain('submitOnce');
    },
  );

  it.concurrent('cancel while waiting for a phone: CANCELED, no claim held, nothing on a phone', async () => {
    const r = rig({}, { noPhone: true, expiresInMs: 60_000 });
    const w = await r.workers();
    const status = await withWorkers(w, async () => {
      const h = await r.start();
      await h.executeUpdate(cancelUpdate, { args: [{ actor: 'op' }] });
      return h.result();
    });
    expect(status).toBe('CANCELED');
    expect(r.names()).not.toContain('preparePurchase');
    expect(r.names()).not.toContain('releaseDevice');
  });

  it.concurrent(
    'a prepare whose phone host stops heartbeating: HEARTBEAT timeout, not retried, NEEDS_MANUAL DEVICE_ERROR, released',
    async () => {
      const r = rig({
        async preparePurchase() {
          // the host is gone: no heartbeat ever again (the sleep ends early when the worker stops)
          await Context.current().sleep(45_000);
          return PREPARED;
        },
      });
      const w = await r.workers();
      const h = await withWorkers(w, async () => {
        const h = await r.start();
        await waitFor(async () => (await h.query(stateQuery)).status === 'NEEDS_MANUAL');
        await waitFor(async () => r.names().includes('releaseDevice'));
        return h;
      });
      expect(r.statuses.at(-1)).toEqual({ to: 'NEEDS_MANUAL', reasonCode: 'DEVICE_ERROR' });
      expect(r.names().filter((x) => x === 'preparePurchase')).toHaveLength(1);
      expect(r.names()).not.toContain('createSubmissionFence');
      const stop = r.calls.find((c) => c.name === 'recordAttemptProgress');
      expect(JSON.stringify(stop?.input)).toMatch(/heartbeat/i);
      await h.terminate('test done');
    },
  );

  it.concurrent(
    'a prepare that fails with a retryable phone fault is not retried by Temporal: NEEDS_MANUAL with the reason from the failure table',
    async () => {
      const r = rig({
        async preparePurchase() {
          throw ApplicationFailure.create({ type: 'SCREEN_TIMEOUT', message: 'waited for the spec panel' });
        },
      });
      const w = await r.workers();
      const h = await withWorkers(w, async () => {
        const h = await r.start();
        await waitFor(async () => (await h.query(stateQuery)).status === 'NEEDS_MANUAL');
        return h;
      });
      expect(r.names().filter((x) => x === 'preparePurchase')).toHaveLength(1);
      expect(r.statuses.at(-1)).toEqual({ to: 'NEEDS_MANUAL', reasonCode: 'DEVICE_ERROR' });
      await h.terminate('test done');
    },
  );

  it.concurrent(
    'submitOnce never taken by a phone host (SCHEDULE_TO_START): NEEDS_MANUAL, the fence abandoned, no reconciliation',
    async () => {
      let stopPhone: () => Promise<void> = async () => {};
      const r = rig({}, { fence: () => stopPhone() });
      const w = await r.workers();
      const phoneRun = w.phoneW.run();
      // the phone host goes away between the fence and submitOnce
      stopPhone = async () => {
        w.phoneW.shutdown();
        await phoneRun;
      };
      const h = await w.adminW.runUntil(
        w.claimW.runUntil(async () => {
          const h = await r.start();
          await waitFor(async () => (await h.query(stateQuery)).status === 'NEEDS_MANUAL');
          return h;
        }),
      );
      expect(r.statuses.at(-1)).toEqual({ to: 'NEEDS_MANUAL', reasonCode: 'DEVICE_ERROR' });
      expect(r.names()).toContain('abandonUntappedFence');
      expect(r.names()).not.toContain('submitOnce');
      expect(r.names()).not.toContain('recordSubmissionOutcome');
      expect(r.statuses.map((s) => s.to)).not.toContain('RECONCILIATION_REQUIRED');
      await h.terminate('test done');
    },
  );

  it.concurrent(
    'submitOnce that outlives its start-to-close (START_TO_CLOSE): an unknown outcome, reconciled, never retried',
    async () => {
      const r = rig({
        async submitOnce() {
          // past submitOnce's minute (the sleep ends early when the worker stops)
          await Context.current().sleep(65_000);
          return { tappedAt: '2026-01-01T00:00:01Z', counters: { adbRoundTrips: 0, dumps: 0, taps: 1, wallMs: 0 } };
        },
      });
      const w = await r.workers();
      const h = await withWorkers(w, async () => {
        const h = await r.start();
        await waitFor(
          async () =>
            (await h.query(stateQuery)).status === 'RECONCILIATION_REQUIRED' && r.names().includes('readPendingOrders'),
        );
        return h;
      });
      expect(r.names().filter((x) => x === 'submitOnce')).toHaveLength(1);
      expect(r.statuses.find((s) => s.to === 'RECONCILIATION_REQUIRED')?.reasonCode).toBe('SUBMIT_NOT_CONFIRMED');
      expect(r.names()).not.toContain('abandonUntappedFence');
      await h.terminate('test done');
    },
  );

  it.concurrent(
    'no phone before the authorization expires: back to DRAFT with AUTHORIZATION_EXPIRED, nothing on a phone',
    async () => {
      const r = rig({}, { noPhone: true });
      const w = await r.workers();
      const status = await withWorkers(w, async () => (await r.start()).result());
      expect(status).toBe('DRAFT');
      expect(r.statuses.at(-1)).toEqual({ to: 'DRAFT', reasonCode: 'AUTHORIZATION_EXPIRED' });
      expect(r.names()).not.toContain('preparePurchase');
    },
  );

  it.concurrent(
    'holdsClaim: yes for the claim the workflow works on, no for any other claim, no once it has let the phone go',
    async () => {
      let finishPrepare: () => void = () => {};
      const prepareMayFinish = new Promise<void>((r) => (finishPrepare = r));
      let preparing: () => void = () => {};
      const started = new Promise<void>((r) => (preparing = r));
      const r = rig({
        async preparePurchase() {
          preparing();
          await prepareMayFinish;
          return PREPARED;
        },
      });
      const w = await r.workers();
      await withWorkers(w, async () => {
        const h = await r.start();
        await started;
        expect(await h.query(holdsClaimQuery, `claim-${r.id}`)).toBe(true);
        // a claim some phone host recorded for this workflow but whose reply never arrived
        expect(await h.query(holdsClaimQuery, 'claim-whose-reply-was-lost')).toBe(false);
        finishPrepare();
        await waitFor(async () => (await h.query(stateQuery)).status === 'WAITING_PAYMENT');
        await waitFor(async () => r.names().includes('releaseDevice'));
        expect(await h.query(holdsClaimQuery, `claim-${r.id}`)).toBe(false);
        await h.terminate('test done');
      });
    },
  );
});

async function waitFor(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('condition not met');
}
