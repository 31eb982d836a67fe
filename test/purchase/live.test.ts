import fs from 'node:fs';
import path from 'node:path';
import { TEST_CHANNEL } from '../../device-worker/pdd/purchase/testkit';
import { BLACK_M, startPurchaseRig, type PurchaseRig } from './setup';

/**
 * Live purchases end to end (docs/engineering.md): operator API → purchase workflow → the real
 * device worker → the simulated phone, and the read-only endings after the one tap.
 */
describe('purchase, live and dry run, through the operator API', () => {
  let rig: PurchaseRig;
  beforeAll(async () => {
    rig = await startPurchaseRig();
  });
  afterAll(async () => {
    await rig?.close();
  });
  beforeEach(() => rig.resetPhone());

  it('live: exactly one order, WAITING_PAYMENT with its number and evidence, then mark-paid → SUCCEEDED', async () => {
    const id = await rig.purchase({ ...BLACK_M, quantity: 2, maxTotalPriceCent: 4000 });
    const t = await rig.waitFor(id, ['WAITING_PAYMENT', 'NEEDS_MANUAL', 'RECONCILIATION_REQUIRED']);
    expect(t.status).toBe('WAITING_PAYMENT');
    const orders = rig.orders();
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({
      goods_id: '937122477375',
      options: ['黑色', 'M'],
      quantity: 2,
      total_cent: 3276,
      status: 'unpaid',
    });
    expect(t.pdd_order_no).toBe(orders[0]?.order_no);
    expect(t.gates).toEqual({
      gate1_unit_price_cent: 1288,
      gate2_panel_total_cent: 3276,
      gate3_submit_amount_cent: 3276,
      quantity_read: 2,
    });
    expect(t.submission).toMatchObject({ status: 'SUBMITTED', pdd_order_no: orders[0]?.order_no });
    // the result names the cap as its shape always has, and the PDD number as everywhere else
    expect(t.attempt?.purchase).toMatchObject({
      requested: { quantity: 2, max_price_cent: 4000 },
      pdd_order_no: orders[0]?.order_no,
      match_status: 'matched',
    });
    expect(t.attempt?.purchase).not.toHaveProperty('order_no');
    expect(t.evidence.map((e) => e.kind)).toEqual(
      expect.arrayContaining(['SKU_PANEL_GATE_1', 'SUBMIT_PANEL_GATE_3', 'ORDER_LIST']),
    );
    // the result screen is the cashier, a payment page: never photographed
    expect(t.evidence.map((e) => e.kind)).not.toContain('ORDER_RESULT');
    expect(rig.submitTaps()).toHaveLength(1);
    expect(rig.paymentTaps()).toHaveLength(0);
    expect(rig.submissionRows().filter((r) => r.task_id === id)).toHaveLength(1);

    const paid = await rig.op.post(`/api/tasks/${id}/mark-paid`);
    expect(paid.status).toBe(200);
    const done = await rig.waitFor(id, ['SUCCEEDED']);
    expect(done.status).toBe('SUCCEEDED');
    // The timeline tells the whole story, from the claim to the operator's mark.
    const steps = (done.attempt?.timeline ?? []) as Array<{ status: string; actor: string | null }>;
    expect(steps.map((e) => e.status)).toEqual(['CLAIMED', 'ORDERING', 'FENCED', 'WAITING_PAYMENT', 'SUCCEEDED']);
    expect(steps.at(-1)?.actor).toBe('admin');
  });

  // a countdown goods page and spec panel never go idle: uiautomator refuses them (stops.test.ts)
  (TEST_CHANNEL === 'agent' ? it : it.skip)(
    'agent channel: a never-idle goods page and spec panel → the same gates, one 提交订单 tap, WAITING_PAYMENT',
    async () => {
      rig.sim.phone(rig.serial).setFaults({ never_idle: ['goods_detail', 'sku_panel'] });
      const id = await rig.purchase({ ...BLACK_M, quantity: 1, maxTotalPriceCent: 2000 });
      const t = await rig.waitFor(id, ['WAITING_PAYMENT', 'NEEDS_MANUAL', 'RECONCILIATION_REQUIRED']);
      expect({ status: t.status, reason: t.reason_code }).toEqual({ status: 'WAITING_PAYMENT', reason: null });
      expect(t.gates).toEqual({
        gate1_unit_price_cent: 1288,
        gate2_panel_total_cent: 1288,
        gate3_submit_amount_cent: 1288,
        quantity_read: 1,
      });
      expect(rig.orders()).toHaveLength(1);
      expect(rig.submitTaps()).toHaveLength(1);
      expect(rig.paymentTaps()).toHaveLength(0);
    },
  );

  it('mark-paid sent the moment 待付款 shows is accepted (the workflow is never a step behind the list)', async () => {
    for (let i = 0; i < 3; i++) {
      const id = await rig.purchase({ ...BLACK_M, quantity: 1, maxTotalPriceCent: 2000 });
      expect(await rig.waitForRow(id, ['WAITING_PAYMENT', 'NEEDS_MANUAL', 'RECONCILIATION_REQUIRED'])).toBe(
        'WAITING_PAYMENT',
      );
      const paid = await rig.op.post(`/api/tasks/${id}/mark-paid`);
      expect({ status: paid.status, body: paid.status === 200 ? null : paid.body }).toEqual({
        status: 200,
        body: null,
      });
      expect((await rig.waitFor(id, ['SUCCEEDED'])).status).toBe('SUCCEEDED');
      await rig.resetPhone();
    }
  });

  it('dry run: DRY_RUN_PASSED with the three readings, no tap on 提交订单, no order', async () => {
    const d = await rig.draft({ ...BLACK_M, quantity: 1, maxTotalPriceCent: 2000, mode: 'dry_run' });
    // a draft saved with no title (one from before drafts needed a collect): the phone's reading fills it in
    await rig.admin.db
      .updateTable('tasks')
      .set({ title: null, search_text: null, shop_name: null })
      .where('task_id', '=', d.task_id)
      .execute();
    expect(
      (await rig.op.post('/api/tasks/start', { tasks: [{ task_id: d.task_id, version: d.version }] })).status,
    ).toBe(200);
    const id = d.task_id;
    const t = await rig.waitFor(id, ['DRY_RUN_PASSED', 'NEEDS_MANUAL']);
    expect(t.status).toBe('DRY_RUN_PASSED');
    expect(t.gates).toEqual({
      gate1_unit_price_cent: 1288,
      gate2_panel_total_cent: 1288,
      gate3_submit_amount_cent: 1288,
      quantity_read: 1,
    });
    expect(rig.submitTaps()).toHaveLength(0);
    expect(rig.orders()).toHaveLength(0);
    expect(t.submission).toBeNull();
    // released off the final panel: one back left it, the goods page is up
    expect(rig.sim.phone(rig.serial).app.top().kind).toBe('goods');
    // The list shows what the phone read on the goods page when the catalog had no title yet.
    expect({ title: t.title, shop_name: t.shop_name }).toEqual({
      title: '【现货】春秋款西装外套男士休闲单西',
      shop_name: '优衣仓男装旗舰店',
    });
  });

  const timeline = (t: { attempt: { timeline: unknown[] } | null }) =>
    (t.attempt?.timeline ?? []) as { status: string; reason: string | null }[];

  it('payment hand-off: RECONCILIATION_REQUIRED (PAYMENT_HANDOFF), no payment tap, then the read-only orders list matches the one order → WAITING_PAYMENT', async () => {
    rig.sim.phone(rig.serial).setFaults({ submit_outcome: 'payment_handoff' });
    const id = await rig.purchase({ ...BLACK_M, quantity: 1, maxTotalPriceCent: 2000 });
    const t = await rig.waitFor(id, ['WAITING_PAYMENT', 'NEEDS_MANUAL']);
    expect(timeline(t)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ status: 'RECONCILIATION_REQUIRED', reason: 'PAYMENT_HANDOFF' }),
      ]),
    );
    expect(t.status).toBe('WAITING_PAYMENT');
    expect(rig.orders()).toHaveLength(1);
    expect(t.pdd_order_no).toBe(rig.orders()[0]?.order_no);
    expect(rig.orders()[0]?.status).toBe('unpaid');
    expect(rig.submitTaps()).toHaveLength(1);
    expect(rig.paymentTaps()).toHaveLength(0);
    // after the tap: reads only — the one submit tap is the last tap of the run
    expect(rig.taps().at(-1)).toBe(rig.submitTaps()[0]);
  });

  it('created_then_hang: the result never shows; reconciliation by the orders list finds exactly one order → WAITING_PAYMENT with its number', async () => {
    rig.sim.phone(rig.serial).setFaults({ submit_outcome: 'created_then_hang' });
    const id = await rig.purchase({ ...BLACK_M, quantity: 2, maxTotalPriceCent: 4000 });
    const t = await rig.waitFor(id, ['WAITING_PAYMENT', 'NEEDS_MANUAL']);
    expect(timeline(t)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ status: 'RECONCILIATION_REQUIRED', reason: 'SUBMIT_OUTCOME_UNKNOWN' }),
      ]),
    );
    expect(rig.orders()).toHaveLength(1);
    expect(t.pdd_order_no).toBe(rig.orders()[0]?.order_no);
    expect(rig.submitTaps()).toHaveLength(1);
    expect(rig.taps().at(-1)).toBe(rig.submitTaps()[0]);
  });

  it('not_created: no order to match → stays RECONCILIATION_REQUIRED; cancel is refused (409) after the fence; resolve not_created → FAILED', async () => {
    rig.sim.phone(rig.serial).setFaults({ submit_outcome: 'not_created' });
    const id = await rig.purchase({ ...BLACK_M, quantity: 1, maxTotalPriceCent: 2000 });
    const t = await rig.waitFor(id, ['RECONCILIATION_REQUIRED', 'WAITING_PAYMENT', 'NEEDS_MANUAL']);
    expect(t.status).toBe('RECONCILIATION_REQUIRED');
    // the workflow reads the orders list before it waits for a person; give it the moment to finish
    await new Promise((r) => setTimeout(r, 1500));
    expect((await rig.task(id)).status).toBe('RECONCILIATION_REQUIRED');
    expect(rig.orders()).toHaveLength(0);
    expect(rig.submitTaps()).toHaveLength(1);
    expect(rig.taps().at(-1)).toBe(rig.submitTaps()[0]);

    const cancel = await rig.op.post(`/api/tasks/${id}/cancel`);
    expect(cancel.status).toBe(409);
    const resolved = await rig.op.post(`/api/tasks/${id}/resolve`, { outcome: 'not_created' });
    expect(resolved.status).toBe(200);
    expect((await rig.waitFor(id, ['FAILED'])).status).toBe('FAILED');
    expect(rig.submitTaps()).toHaveLength(1);
  });

  it('captcha after the submit with the order not created: resolve created, sent the moment 待核对 shows, with the order number a person found → WAITING_PAYMENT', async () => {
    rig.sim.phone(rig.serial).setFaults({ submit_outcome: 'captcha' });
    const id = await rig.purchase({ ...BLACK_M, quantity: 1, maxTotalPriceCent: 2000 });
    expect(await rig.waitForRow(id, ['RECONCILIATION_REQUIRED', 'WAITING_PAYMENT', 'NEEDS_MANUAL'])).toBe(
      'RECONCILIATION_REQUIRED',
    );
    const resolved = await rig.op.post(`/api/tasks/${id}/resolve`, {
      outcome: 'created',
      pdd_order_no: '260807-000000000000001',
    });
    expect(resolved.status).toBe(200);
    const seen = await rig.task(id);
    // the one captcha code; after the tap it reads as one and says to reconcile
    expect(seen.reason_code).toBe('CAPTCHA_REQUIRED');
    expect(seen.reason_zh).toContain('提交后');
    const after = await rig.waitFor(id, ['WAITING_PAYMENT']);
    expect(after.pdd_order_no).toBe('260807-000000000000001');
    expect(rig.submitTaps()).toHaveLength(1);
  });

  it('the device worker is stopped right after the tap and started again: still one order, one submission row, one tap', async () => {
    const id = await rig.purchase({ ...BLACK_M, quantity: 1, maxTotalPriceCent: 2000 });
    const deadline = Date.now() + 30_000;
    while (rig.submitTaps().length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(rig.submitTaps()).toHaveLength(1);
    await rig.stopWorker();
    await rig.startWorker();
    const t = await rig.waitFor(id, ['WAITING_PAYMENT', 'RECONCILIATION_REQUIRED', 'NEEDS_MANUAL']);
    expect(['WAITING_PAYMENT', 'RECONCILIATION_REQUIRED']).toContain(t.status);
    if (t.status === 'WAITING_PAYMENT') expect(t.pdd_order_no).toBe(rig.orders()[0]?.order_no);
    expect(rig.orders()).toHaveLength(1);
    expect(rig.submissionRows().filter((r) => r.task_id === id)).toHaveLength(1);
    expect(rig.submitTaps()).toHaveLength(1);
    expect(rig.paymentTaps()).toHaveLength(0);
  });

  it('the phone drops off ADB before the fence: not retried (page actions before the fence never are) → NEEDS_MANUAL DEVICE_ERROR, no order, no submit tap', async () => {
    rig.sim.phone(rig.serial).setFaults({ disconnect_after_commands: 4 });
    const id = await rig.purchase({ ...BLACK_M, quantity: 1, maxTotalPriceCent: 2000 });
    const t = await rig.waitFor(id, ['NEEDS_MANUAL', 'WAITING_PAYMENT', 'RECONCILIATION_REQUIRED'], 90_000);
    rig.sim.phone(rig.serial).clearFaults();
    expect({ status: t.status, reason: t.reason_code }).toEqual({ status: 'NEEDS_MANUAL', reason: 'DEVICE_ERROR' });
    // the first failure, as it happened: a command the phone that left ADB could not answer
    expect(t.attempt?.failure_detail).toMatch(/ADB|not available|disconnect|not found/i);
    expect(rig.orders()).toHaveLength(0);
    expect(rig.submitTaps()).toHaveLength(0);
  });

  it('stale dumps and extra loading screens on the way: still exactly one order and one tap', async () => {
    rig.sim.phone(rig.serial).setFaults({ stale_dump_rate: 0.5, loading_dumps: 2, seed: 7 });
    const id = await rig.purchase({ ...BLACK_M, quantity: 2, maxTotalPriceCent: 4000 });
    const t = await rig.waitFor(id, ['WAITING_PAYMENT', 'NEEDS_MANUAL', 'RECONCILIATION_REQUIRED']);
    expect(t.status).toBe('WAITING_PAYMENT');
    expect(rig.orders()).toHaveLength(1);
    expect(t.pdd_order_no).toBe(rig.orders()[0]?.order_no);
    expect(rig.submitTaps()).toHaveLength(1);
    expect(rig.paymentTaps()).toHaveLength(0);
  });

  // (A refused device token is no way to fail them: the worker then takes no claims at all — never-stuck.test.ts.)
  it('evidence uploads all fail (the admin cannot store them): the purchase still completes once, without evidence', async () => {
    const store = path.join(rig.admin.dataDir, 'evidence');
    fs.mkdirSync(store, { recursive: true });
    fs.renameSync(store, `${store}.away`);
    fs.writeFileSync(store, 'not a directory: every upload fails');
    try {
      const id = await rig.purchase({ ...BLACK_M, quantity: 1, maxTotalPriceCent: 2000 });
      const t = await rig.waitFor(id, ['WAITING_PAYMENT', 'NEEDS_MANUAL', 'RECONCILIATION_REQUIRED']);
      expect(t.status).toBe('WAITING_PAYMENT');
      expect(t.evidence).toEqual([]);
      expect(rig.orders()).toHaveLength(1);
      expect(rig.submitTaps()).toHaveLength(1);
    } finally {
      fs.rmSync(store);
      fs.renameSync(`${store}.away`, store);
    }
  });

  it('the device worker is stopped the moment the fence row exists and started again: one tap, one order, one row', async () => {
    const id = await rig.purchase({ ...BLACK_M, quantity: 1, maxTotalPriceCent: 2000 });
    // A bound, not a speed claim: on 2 busy cores the prepare before the fence can take a while.
    const deadline = Date.now() + 120_000;
    const fenced = () =>
      rig.admin.db.selectFrom('order_submissions').select('id').where('task_id', '=', id).executeTakeFirst();
    while (!(await fenced()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    expect(await fenced()).toBeTruthy();
    await rig.stopWorker();
    const tapsWhileStopped = rig.submitTaps().length;
    expect(tapsWhileStopped).toBeLessThanOrEqual(1);
    await rig.startWorker();
    const t = await rig.waitFor(id, ['WAITING_PAYMENT', 'RECONCILIATION_REQUIRED', 'NEEDS_MANUAL']);
    expect(['WAITING_PAYMENT', 'RECONCILIATION_REQUIRED']).toContain(t.status);
    expect(rig.orders()).toHaveLength(1);
    expect(rig.submitTaps()).toHaveLength(1);
    expect(rig.submissionRows().filter((r) => r.task_id === id)).toHaveLength(1);
    expect(
      await rig.admin.db.selectFrom('order_submissions').selectAll().where('task_id', '=', id).execute(),
    ).toHaveLength(1);
  });
});
