import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Client, WorkflowHandle } from '@temporalio/client';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { nowUtc } from '../../domain/time';
import { decryptHistoryPayloads } from '../../temporal/codec/history';
import globalSetup from '../global-setup';
import globalTeardown from '../global-teardown';
import { upload } from '../catalog/helpers';
import { buildWorkbook } from '../catalog/workbook';
import { BLACK_M, startPurchaseRig, type PurchaseRig, type TaskSpec } from '../purchase/setup';
import type { Faults } from '../../sim/phone';

/**
 * Records the history of every purchase ending, and of collect, through the real stack (a
 * Temporal dev server, the admin with its worker on the production bundle, the phone simulator
 * and the real device worker) into test/histories/<name>.json, which the replay test replays
 * against the production bundle (docs/versioning.md). Run by hand, never by `npm test`:
 *
 *   npx tsx test/histories/record.ts                  # every ending
 *   npx tsx test/histories/record.ts purchase-cancel  # only these
 *
 * A purchase that waits for its operator (待付款, 待核对, 需人工处理) is recorded parked, the
 * way a deploy finds it; the others are recorded closed.
 */
const DIR = __dirname;

interface Scenario {
  name: string;
  /** no phone: the purchase waits for a claim that never comes */
  phoneless?: boolean;
  run(rig: PurchaseRig): Promise<string>;
}

const SCENARIOS: Scenario[] = [
  {
    name: 'purchase-succeeded',
    async run(rig) {
      const id = await rig.purchase({ ...BLACK_M, quantity: 2, maxTotalPriceCent: 4000 });
      await expectStatus(rig, id, 'WAITING_PAYMENT');
      await ok(rig.op.post(`/api/tasks/${id}/mark-paid`));
      return await reaches(rig, id, 'SUCCEEDED');
    },
  },
  {
    name: 'purchase-dry-run',
    run: async (rig) => expectStatus(rig, await rig.purchase({ ...BLACK_M, quantity: 1, maxTotalPriceCent: 2000, mode: 'dry_run' }), 'DRY_RUN_PASSED'),
  },
  { name: 'purchase-gate1-over-cap', run: (rig) => stop(rig, { ...BLACK_M, quantity: 2, maxTotalPriceCent: 2500 }, 'GATE1_OVER_CAP') },
  { name: 'purchase-gate2-over-cap', run: (rig) => stop(rig, { ...BLACK_M, quantity: 2, maxTotalPriceCent: 3000 }, 'GATE2_OVER_CAP') },
  {
    name: 'purchase-gate3-price-changed',
    run: (rig) =>
      stop(rig, { ...BLACK_M, quantity: 2, maxTotalPriceCent: 5000 }, 'PRICE_CHANGED', { price_change: { goods_id: BLACK_M.goodsId, after: 'gate2', price_cent: 1500, tier_totals_cent: { '2': 3900 } } }),
  },
  // a stop the phone reports as a device failure: CAPTCHA_REQUIRED all the way to the reason of the same name
  { name: 'purchase-captcha', run: (rig) => stop(rig, { ...BLACK_M, quantity: 1, maxTotalPriceCent: 2000 }, 'CAPTCHA_REQUIRED', { captcha_on: 'open' }) },
  // the phone drops off ADB before the fence: retries spent, then DEVICE_ERROR
  { name: 'purchase-device-error', run: (rig) => stop(rig, { ...BLACK_M, quantity: 1, maxTotalPriceCent: 2000 }, 'DEVICE_ERROR', { disconnect_after_commands: 4 }) },
  { name: 'purchase-fence-unavailable', run: fenceUnavailable },
  {
    name: 'purchase-reconcile-matched',
    async run(rig) {
      rig.sim.phone(rig.serial).setFaults({ submit_outcome: 'created_then_hang' });
      const id = await rig.purchase({ ...BLACK_M, quantity: 1, maxTotalPriceCent: 2000 });
      // through 待核对 on its own: the read-only orders list finds the one order
      await reaches(rig, id, 'WAITING_PAYMENT');
      if (!(await rig.task(id)).attempt?.timeline.some((e) => (e as { status: string }).status === 'RECONCILIATION_REQUIRED')) throw new Error('no reconciliation on the way');
      return id;
    },
  },
  {
    name: 'purchase-resolved-created',
    async run(rig) {
      rig.sim.phone(rig.serial).setFaults({ submit_outcome: 'captcha' });
      const id = await rig.purchase({ ...BLACK_M, quantity: 1, maxTotalPriceCent: 2000 });
      await expectStatus(rig, id, 'RECONCILIATION_REQUIRED');
      await settled(rig, id);
      await ok(rig.op.post(`/api/tasks/${id}/resolve`, { outcome: 'created', pdd_order_no: '260807-000000000000001' }));
      return await reaches(rig, id, 'WAITING_PAYMENT');
    },
  },
  {
    name: 'purchase-resolved-not-created',
    async run(rig) {
      rig.sim.phone(rig.serial).setFaults({ submit_outcome: 'not_created' });
      const id = await rig.purchase({ ...BLACK_M, quantity: 1, maxTotalPriceCent: 2000 });
      await expectStatus(rig, id, 'RECONCILIATION_REQUIRED');
      await settled(rig, id);
      await ok(rig.op.post(`/api/tasks/${id}/resolve`, { outcome: 'not_created' }));
      return await reaches(rig, id, 'FAILED');
    },
  },
  {
    // the cashier shows, but no order in the 待付款 list matches: reconciled, parked in 待核对
    name: 'purchase-cashier-unmatched',
    async run(rig) {
      rig.onSubmitTap(() => void rig.orders().splice(0));
      try {
        const id = await rig.purchase({ ...BLACK_M, quantity: 1, maxTotalPriceCent: 2000 });
        await expectStatus(rig, id, 'RECONCILIATION_REQUIRED');
        const t = await rig.task(id);
        if (t.reason_code !== 'ORDER_NOT_MATCHED') throw new Error(`expected ORDER_NOT_MATCHED, got ${t.reason_code}`);
        return id;
      } finally {
        rig.onSubmitTap(null);
      }
    },
  },
  {
    name: 'purchase-reset',
    async run(rig) {
      const id = await stop(rig, { ...BLACK_M, quantity: 2, maxTotalPriceCent: 2500 }, 'GATE1_OVER_CAP');
      await ok(rig.op.post(`/api/tasks/${id}/reset`));
      return await reaches(rig, id, 'DRAFT');
    },
  },
  // recorded after the phone's release began to run beside the operator's wait (patch release-in-background)
  {
    name: 'purchase-succeeded-release-in-background',
    async run(rig) {
      const id = await rig.purchase({ ...BLACK_M, quantity: 1, maxTotalPriceCent: 2000 });
      await expectStatus(rig, id, 'WAITING_PAYMENT');
      await settled(rig, id);
      await ok(rig.op.post(`/api/tasks/${id}/mark-paid`));
      return await reaches(rig, id, 'SUCCEEDED');
    },
  },
  // the operator's cancel reaches the running prepare (a slow phone keeps it on the goods page)
  {
    name: 'purchase-cancel-in-prepare',
    async run(rig) {
      rig.sim.phone(rig.serial).setFaults({ latency: 'realistic', seed: 7 });
      const id = await rig.purchase({ ...BLACK_M, quantity: 1, maxTotalPriceCent: 2000 });
      const deadline = Date.now() + 60_000;
      while (rig.taps().length === 0) {
        if (Date.now() > deadline) throw new Error('prepare never tapped');
        await sleep(50);
      }
      await ok(rig.op.post(`/api/tasks/${id}/cancel`));
      await reaches(rig, id, 'CANCELED');
      const handle = await workflowOf(rig, id);
      await handle.result();
      rig.sim.phone(rig.serial).setFaults({});
      return id;
    },
  },
  {
    name: 'purchase-cancel',
    phoneless: true,
    async run(rig) {
      const id = await rig.purchase({ ...BLACK_M, quantity: 1, maxTotalPriceCent: 2000 });
      await reaches(rig, id, 'PENDING');
      await ok(rig.op.post(`/api/tasks/${id}/cancel`));
      return await reaches(rig, id, 'CANCELED');
    },
  },
  {
    name: 'purchase-expired',
    phoneless: true,
    async run(rig) {
      // the shortest TTL production accepts, through the row an operator edits; then a minute without a phone
      await rig.admin.db
        .insertInto('app_settings')
        .values({ setting_key: 'purchase.authorization_ttl_minutes', value_json: '1', updated_at: nowUtc() })
        .onConflict((oc) => oc.column('setting_key').doUpdateSet({ value_json: '1' }))
        .execute();
      const id = await rig.purchase({ ...BLACK_M, quantity: 1, maxTotalPriceCent: 2000 });
      const t = await rig.waitFor(id, ['DRAFT', 'NEEDS_MANUAL', 'CLAIMED'], 150_000);
      if (t.reason_code !== 'AUTHORIZATION_EXPIRED') throw new Error(`expected AUTHORIZATION_EXPIRED, got ${t.status} ${t.reason_code}`);
      return id;
    },
  },
];

/** collect has no task of its own in the purchase sense: its history is saved by workflow id. */
async function recordCollect(rig: PurchaseRig, client: Client): Promise<void> {
  const goodsId = BLACK_M.goodsId;
  const workbook = await buildWorkbook(
    ['商品ID', '商品名稱', '商品規格ID', '商品規格'],
    [
      { 商品ID: '8001', 商品名稱: '西裝外套', 商品規格ID: '-' },
      { 商品ID: '8001', 商品名稱: '西裝外套', 商品規格ID: '9001', 商品規格: '黑色,M【建議40-50公斤】' },
    ],
  );
  await ok(upload(rig.op, workbook));
  await ok(rig.op.put('/api/shopee/products/8001/pdd-link', { url: `https://mobile.yangkeduo.com/goods.html?goods_id=${goodsId}` }));
  const start = await ok(rig.op.post(`/api/pdd/products/${goodsId}/collect`));
  const { workflow_id, run_id } = start.body as { workflow_id: string; run_id: string };
  const handle = client.workflow.getHandle(workflow_id, run_id);
  await handle.result();
  const row = (await rig.op.get(`/api/pdd/products/${goodsId}`)).body as { collect_status: string };
  if (row.collect_status !== 'collected') throw new Error(`collect ended ${row.collect_status}`);
  await save('collect', handle);
}

/** A stop before the fence: NEEDS_MANUAL with `reason`, left parked for the operator. */
async function stop(rig: PurchaseRig, task: TaskSpec, reason: string, faults?: Faults): Promise<string> {
  if (faults) rig.sim.phone(rig.serial).setFaults(faults);
  const id = await rig.purchase(task);
  await expectStatus(rig, id, 'NEEDS_MANUAL');
  const t = await rig.task(id);
  if (t.reason_code !== reason) throw new Error(`expected ${reason}, got ${t.reason_code}`);
  // a captcha stop puts the phone on 需处理: the next recording needs it claiming again, and
  // 处理完毕，继续 reads the phone first, so the page the stop left goes before it
  await rig.resetPhone();
  await rig.resumePhone();
  return id;
}

/**
 * The fence fails for real: the moment the gates are recorded, another connection holds the admin
 * DB's write lock, so the fence's transaction gives up after the busy timeout (one try, no answer)
 * and the purchase stops with FENCE_UNAVAILABLE. The lock goes once the workflow has moved on.
 */
async function fenceUnavailable(rig: PurchaseRig): Promise<string> {
  const locker = new Database(path.join(rig.admin.dataDir, 'admin.db'));
  try {
    const id = await rig.purchase({ ...BLACK_M, quantity: 1, maxTotalPriceCent: 2000 });
    const step = locker.prepare('select step from purchase_attempts where task_id = ?');
    const deadline = Date.now() + 120_000;
    while ((step.get(id) as { step: string } | undefined)?.step !== 'final_panel') {
      if (Date.now() > deadline) throw new Error('the purchase never reached the final panel');
      await sleep(1);
    }
    locker.exec('BEGIN IMMEDIATE');
    const handle = await workflowOf(rig, id);
    while (!((await handle.describe()).raw.pendingActivities ?? []).some((a) => a.activityType?.name === 'abandonUntappedFence')) {
      // the lock is taken by polling: should the fence ever win that race, the run says so
      if (Date.now() > deadline || rig.submitTaps().length > 0) throw new Error('the fence answered before the lock was taken: record purchase-fence-unavailable again');
      await sleep(50);
    }
    locker.exec('ROLLBACK');
    await expectStatus(rig, id, 'NEEDS_MANUAL');
    const t = await rig.task(id);
    if (t.reason_code !== 'FENCE_UNAVAILABLE' || rig.submitTaps().length !== 0) throw new Error(`expected FENCE_UNAVAILABLE without a tap, got ${t.reason_code}`);
    return id;
  } finally {
    if (locker.inTransaction) locker.exec('ROLLBACK');
    locker.close();
  }
}

/** A purchase the workflow drives on its own: `status`, or the first place it rests instead. */
async function expectStatus(rig: PurchaseRig, id: string, status: string): Promise<string> {
  const resting = ['NEEDS_MANUAL', 'RECONCILIATION_REQUIRED', 'WAITING_PAYMENT', 'DRY_RUN_PASSED', 'DRAFT', 'CANCELED', 'FAILED', 'SUCCEEDED'];
  const t = await rig.waitFor(id, [...new Set([status, ...resting])], 150_000);
  if (t.status !== status) throw new Error(`expected ${status}, got ${t.status} ${t.reason_code ?? ''} ${t.attempt?.failure_detail ?? ''}`);
  return id;
}

/** The status an operator's action (or a step through another state) leads to. */
async function reaches(rig: PurchaseRig, id: string, status: string): Promise<string> {
  await rig.waitFor(id, [status], 150_000);
  return id;
}

async function ok<T extends { status: number; body: unknown }>(res: Promise<T>): Promise<T> {
  const r = await res;
  if (r.status >= 300) throw new Error(`HTTP ${r.status} ${JSON.stringify(r.body)}`);
  return r;
}

async function workflowOf(rig: PurchaseRig, taskId: string): Promise<WorkflowHandle> {
  const workflowId = (await rig.task(taskId)).workflow_id;
  if (!workflowId) throw new Error(`task ${taskId} has no workflow`);
  return (await rig.admin.temporal.client()).workflow.getHandle(workflowId);
}

/** Waits until the workflow is closed, or blocked on its operator with nothing left to run. */
async function settled(rig: PurchaseRig, taskId: string): Promise<WorkflowHandle> {
  const handle = await workflowOf(rig, taskId);
  let quietLooks = 0;
  while (quietLooks < 3) {
    const d = await handle.describe();
    const idle = d.status.name !== 'RUNNING' || (!d.raw.pendingWorkflowTask && (d.raw.pendingActivities ?? []).length === 0);
    quietLooks = idle ? quietLooks + 1 : 0;
    await sleep(300);
  }
  return handle;
}

async function save(name: string, handle: WorkflowHandle): Promise<void> {
  // decrypted: the recorded history must replay under any later run's key
  const history = await decryptHistoryPayloads(await handle.fetchHistory());
  const file = path.join(DIR, `${name}.json`);
  fs.writeFileSync(file, `${JSON.stringify(JSON.parse(historyToJSON(history)), null, 1)}\n`);
  console.log(`[record] ${path.relative(process.cwd(), file)}: ${history.events?.length ?? 0} events`);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  const wanted = (name: string) => only.length === 0 || only.includes(name);
  const unknown = only.filter((n) => n !== 'collect' && !SCENARIOS.some((s) => s.name === n));
  if (unknown.length) throw new Error(`unknown endings ${unknown.join(', ')}; known: ${[...SCENARIOS.map((s) => s.name), 'collect'].join(', ')}`);

  await globalSetup();
  const rigs: PurchaseRig[] = [];
  try {
    const runAll = async (phoneless: boolean) => {
      const list = SCENARIOS.filter((s) => !!s.phoneless === phoneless && wanted(s.name));
      if (!list.length && (phoneless || !wanted('collect'))) return;
      const rig = await startPurchaseRig({ withWorker: !phoneless });
      rigs.push(rig);
      for (const s of list) {
        await rig.resetPhone();
        const id = await s.run(rig);
        await save(s.name, await settled(rig, id));
      }
      if (!phoneless && wanted('collect')) {
        await rig.resetPhone();
        await recordCollect(rig, await rig.admin.temporal.client());
      }
    };
    // the phoneless endings mostly wait (the expiry takes a minute): alongside the others
    await Promise.all([runAll(false), runAll(true)]);
  } finally {
    for (const rig of rigs) await rig.close().catch(() => undefined);
    await globalTeardown();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(`[record] ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    process.exit(1);
  },
);
