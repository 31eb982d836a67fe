import path from 'node:path';
import { startPhoneSim, type Goods, type Order, type PhoneSim, type TapRecord } from '../../sim/phone';
import { isPaymentTap, isSubmitTap } from '../../sim/phone/taps';
import { SubmissionLedger, type SubmissionRow } from '../../device-worker/ledger/submissions';
import { startDeviceWorker, type DeviceWorkerHandle } from '../../workers/device';
import { TEST_CHANNEL } from '../../device-worker/pdd/purchase/testkit';
import type { TaskView } from '../../domain/purchase/views';
import { collectedInTestDb } from '../collected';
import {
  issueTestDevice,
  loginOperator,
  startTestAdmin,
  tempDataDir,
  testLogger,
  type OperatorClient,
  type TestAdmin,
  type TestDevice,
} from '../harness';

/**
 * One operator, one admin (own Temporal namespace), one simulated phone and the real device
 * worker for it — the whole purchase path, driven only through the HTTP API as an operator.
 */
export interface PurchaseRig {
  admin: TestAdmin;
  op: OperatorClient;
  sim: PhoneSim;
  serial: string;
  device: TestDevice;
  worker: DeviceWorkerHandle | null;
  dataDir: string;
  /** `token` overrides the device token (a wrong one makes every evidence upload fail) */
  startWorker(opts?: { token?: string }): Promise<DeviceWorkerHandle>;
  stopWorker(): Promise<void>;
  /** closes the admin (HTTP, admin worker, DB) as a crash of the admin process would end it */
  stopAdmin(): Promise<void>;
  /** a new admin on the same data dir, namespace, Temporal address and port (sessions and device tokens carry over) */
  startAdmin(): Promise<TestAdmin>;
  /** runs `fn` synchronously inside the sim's 提交订单 tap, before the tap command answers; null removes it */
  onSubmitTap(fn: (() => void) | null): void;
  /** creates a DRAFT and starts it; returns the task id */
  purchase(t: TaskSpec): Promise<string>;
  /** a DRAFT on the goods as the phone collected it (test/collected.ts): a draft needs a collect */
  draft(t: TaskSpec): Promise<{ task_id: string; version: number }>;
  task(id: string): Promise<TaskView>;
  /** polls the admin DB tightly: returns the moment the row shows one of `statuses` (to race an operator click against the workflow) */
  waitForRow(id: string, statuses: string[], timeoutMs?: number): Promise<string>;
  waitFor(id: string, statuses: string[], timeoutMs?: number): Promise<TaskView>;
  orders(): Order[];
  taps(): TapRecord[];
  /** taps whose target is the 提交订单 control (either copy) */
  submitTaps(): TapRecord[];
  /** taps on anything that moves money */
  paymentTaps(): TapRecord[];
  submissionRows(): SubmissionRow[];
  /** the phone back to its first state; on the agent channel, once its agent runs again */
  resetPhone(): Promise<void>;
  /** 恢复 through the operator API: a stop on a captcha or login page put the phone on 需处理 (docs/api.md §12.1) */
  resumePhone(): Promise<void>;
  close(): Promise<void>;
}

export interface TaskSpec {
  goodsId: string;
  options: Record<string, string>;
  quantity: number;
  maxTotalPriceCent: number;
  mode?: 'dry_run' | 'live';
  /** the goods as the phone showed it when collected, for a goods that changed since (test/collected.ts) */
  asCollected?: (goods: Goods) => Goods;
}

/**
 * On the agent channel (device-worker/pdd/purchase/testkit.ts `TEST_CHANNEL`) a purchase starts
 * only once the worker's agent runs, so it is read through the agent from its first screen: a
 * reset phone lost its agent, and the worker installs and starts it again at its next status check.
 */
async function agentOnChannel(worker: DeviceWorkerHandle | null, onPhone: () => boolean): Promise<void> {
  if (TEST_CHANNEL !== 'agent' || !worker) return;
  const deadline = Date.now() + 30_000;
  // both: right after a reset the worker still believes in the agent the reset killed
  while (worker.agent().state !== 'running' || !onPhone()) {
    if (Date.now() > deadline) throw new Error(`the agent is not running: ${JSON.stringify(worker.agent())}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export const BLACK_M = { goodsId: '937122477375', options: { 颜色分类: '黑色', 尺码: 'M' } };

export const FAST_TIMING = {
  navigationSettleMs: 0,
  tapSettleMs: 0,
  swipeSettleMs: 0,
  loadingPollMs: 50,
  maxDumpsPerWait: 8,
};

/**
 * TEST CODE ONLY: marks a PDD app version released straight in the admin DB, as if a dry run had
 * passed on it and an operator had released it — for tests about something other than the
 * release gate, which must stay cheap. The gate itself is proven in test/devices/app-versions.test.ts;
 * the product never releases a version by itself.
 */
export async function releaseAppVersionInTestDb(admin: Pick<TestAdmin, 'db'>, appVersion = '8.17.0'): Promise<void> {
  const at = new Date().toISOString().slice(0, 19) + 'Z';
  await admin.db
    .insertInto('app_versions')
    .values({
      app_version: appVersion,
      first_seen_at: at,
      last_dry_run_passed_at: at,
      last_dry_run_task_id: null,
      released_at: at,
      released_by: 'test-setup',
    })
    .onConflict((oc) =>
      oc.column('app_version').doUpdateSet({ last_dry_run_passed_at: at, released_at: at, released_by: 'test-setup' }),
    )
    .execute();
}

/**
 * `temporal`: a server the test owns (admin and device worker both use it); default the shared one.
 * `adminWorker: false`: the in-process admin serves HTTP and the DB only; the test runs the admin
 * worker elsewhere (e.g. an admin process it can SIGKILL).
 * `claimCheckIntervalMs`: how often the device worker asks Temporal about its open claim (default 1 s).
 */
export async function startPurchaseRig(
  opts: {
    withWorker?: boolean;
    temporal?: { address: string; namespace: string };
    adminWorker?: boolean;
    claimCheckIntervalMs?: number;
    /** false: leave the sim's PDD version unreleased (the release gate's own tests); default released */
    releaseAppVersion?: boolean;
  } = {},
): Promise<PurchaseRig> {
  const runWorker = opts.adminWorker ?? true;
  const admin = await startTestAdmin({ ...(opts.temporal ? { temporal: opts.temporal } : {}), runWorker });
  if (opts.releaseAppVersion !== false) await releaseAppVersionInTestDb(admin);
  const temporalAddress = opts.temporal?.address ?? (process.env.CMAUTOBUY_TEST_TEMPORAL_ADDRESS as string);
  const op = await loginOperator(admin);
  const serial = 'purchase-phone';
  const sim = await startPhoneSim({ adbPort: 0, controlPort: 0, phones: [serial] });
  const device = await issueTestDevice(admin, 'purchase phone');
  const dataDir = tempDataDir('device');
  const ledgerFile = path.join(dataDir, 'device', device.deviceId, 'ledger.db');
  const phone = () => sim.phone(serial);
  let submitTapHook: (() => void) | null = null;
  const simPhone = phone();
  const tap = simPhone.tap.bind(simPhone);
  simPhone.tap = (x: number, y: number) => {
    tap(x, y);
    const last = simPhone.taps.at(-1);
    if (submitTapHook && last && isSubmitTap(last)) submitTapHook();
  };

  const rig: PurchaseRig = {
    admin,
    op,
    sim,
    serial,
    device,
    worker: null,
    dataDir,
    async startWorker(o = {}) {
      const w = await startDeviceWorker({
        deviceId: device.deviceId,
        serial,
        // a phone that left ADB is given up on quickly, so a disconnect test is short
        adb: { host: '127.0.0.1', port: sim.adbPort, timeouts: { reconnectMs: 1_500 } },
        dataDir,
        temporal: { address: temporalAddress, namespace: rig.admin.namespace },
        admin: { url: rig.admin.url, token: o.token ?? device.token },
        log: testLogger('device-worker'),
        timing: FAST_TIMING,
        claimCheckIntervalMs: opts.claimCheckIntervalMs ?? 1_000,
        // a resumed phone polls for claims again within a second
        statusIntervalMs: 1_000,
        agent: TEST_CHANNEL === 'agent',
      });
      await w.ready;
      rig.worker = w;
      return w;
    },
    async stopWorker() {
      const w = rig.worker;
      rig.worker = null;
      await w?.stop();
    },
    async stopAdmin() {
      await rig.admin.close();
    },
    async startAdmin() {
      const { dataDir: adminDir, namespace, port } = rig.admin;
      rig.admin = await startTestAdmin({
        dataDir: adminDir,
        port,
        runWorker,
        temporal: { address: temporalAddress, namespace },
      });
      return rig.admin;
    },
    onSubmitTap(fn) {
      submitTapHook = fn;
    },
    async draft(t) {
      await agentOnChannel(rig.worker, () => sim.phone(serial).agent.running);
      await collectedInTestDb(rig.admin.db, t.goodsId, { asCollected: t.asCollected });
      const res = await op.post('/api/tasks', {
        type: 'purchase',
        pdd_goods_url: `https://mobile.yangkeduo.com/goods.html?goods_id=${t.goodsId}`,
        pdd_options: t.options,
        quantity: t.quantity,
        max_total_price_cent: t.maxTotalPriceCent,
        execution_mode: t.mode ?? 'live',
      });
      if (res.status !== 201) throw new Error(`draft: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body as { task_id: string; version: number };
    },
    async purchase(t) {
      const d = await rig.draft(t);
      const res = await op.post('/api/tasks/start', { tasks: [{ task_id: d.task_id, version: d.version }] });
      if (res.status !== 200) throw new Error(`start: ${res.status} ${JSON.stringify(res.body)}`);
      return d.task_id;
    },
    async task(id) {
      const res = await op.get(`/api/tasks/${id}`);
      if (res.status !== 200) throw new Error(`task ${id}: ${res.status}`);
      return res.body as TaskView;
    },
    async waitFor(id, statuses, timeoutMs = 120_000) {
      const deadline = Date.now() + timeoutMs;
      let last: TaskView | null = null;
      while (Date.now() < deadline) {
        last = await rig.task(id);
        if (statuses.includes(last.status)) return last;
        await new Promise((r) => setTimeout(r, 150));
      }
      throw new Error(
        `task ${id} did not reach ${statuses.join('/')}: ${last?.status} ${last?.reason_code} ${JSON.stringify(last?.attempt?.failure_detail)}`,
      );
    },
    async waitForRow(id, statuses, timeoutMs = 120_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const row = await rig.admin.db
          .selectFrom('tasks')
          .select('status')
          .where('task_id', '=', id)
          .executeTakeFirst();
        if (row && statuses.includes(row.status)) return row.status;
        if (Date.now() > deadline)
          throw new Error(`task ${id} row did not reach ${statuses.join('/')}: ${row?.status}`);
        await new Promise((r) => setTimeout(r, 1));
      }
    },
    orders: () => phone().app.orders,
    taps: () => phone().taps,
    submitTaps: () => phone().taps.filter(isSubmitTap),
    paymentTaps: () => phone().taps.filter(isPaymentTap),
    submissionRows() {
      const l = new SubmissionLedger(ledgerFile);
      try {
        return l.all();
      } finally {
        l.close();
      }
    },
    async resetPhone() {
      phone().reset();
      await agentOnChannel(rig.worker, () => phone().agent.running);
    },
    async resumePhone() {
      const res = await rig.op.post(`/api/devices/${device.deviceId}/resume`);
      if (res.status !== 200) throw new Error(`resume: ${res.status} ${JSON.stringify(res.body)}`);
    },
    async close() {
      await rig.stopWorker().catch(() => undefined);
      await sim.close();
      await rig.admin.close().catch(() => undefined);
    },
  };
  if (opts.withWorker !== false) await rig.startWorker();
  return rig;
}

/** The rig's phone shows these overlays from now on (the sim's control API, sim/phone/SCREENS.md "How an overlay shows"). */
export async function putSimOverlays(rig: Pick<PurchaseRig, 'sim' | 'serial'>, overlays: object[]): Promise<void> {
  const res = await fetch(`http://127.0.0.1:${rig.sim.controlPort}/devices/${rig.serial}/overlays`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ overlays }),
  });
  if (res.status !== 200) throw new Error(`PUT overlays: ${res.status} ${await res.text()}`);
}
