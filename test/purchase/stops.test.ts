import type { DeviceView } from '../../domain/devices';
import type { Faults, Goods } from '../../sim/phone';
import { TEST_CHANNEL } from '../../device-worker/pdd/purchase/testkit';
import { BLACK_M, startPurchaseRig, type PurchaseRig, type TaskSpec } from './setup';

/** The goods as collected before it changed on the phone: every option in stock. */
const restocked = (g: Goods): Goods => ({ ...g, skus: g.skus.map((s) => ({ ...s, stock: Math.max(s.stock, 5) })) });
/** The goods as collected before an option was renamed on the phone (`now` was `then`). */
const renamed =
  (now: string, then: string) =>
  (g: Goods): Goods => ({
    ...g,
    dimensions: g.dimensions.map((d) => ({ ...d, values: d.values.map((v) => (v === now ? then : v)) })),
    skus: g.skus.map((s) => ({ ...s, options: s.options.map((v) => (v === now ? then : v)) })),
  });

/**
 * Every stop before the fence: NEEDS_MANUAL with its reason code, no order,
 * no tap on 提交订单 — each through the operator API, the real workflow and device worker.
 */
describe('purchase stops before the fence', () => {
  let rig: PurchaseRig;
  beforeAll(async () => {
    rig = await startPurchaseRig();
  });
  afterAll(async () => {
    await rig?.close();
  });
  beforeEach(async () => {
    await rig.resetPhone();
    // a captcha stop put the phone on 需处理: the next case needs it claiming again
    await rig.resumePhone();
  });

  const cases: Array<{
    name: string;
    task: TaskSpec;
    faults?: Faults;
    reason: string;
    noTapsAtAll?: boolean;
    /** what the task's answer says the phone read, as data (domain/purchase/stop-facts.ts) */
    facts?: Record<string, unknown>;
  }> = [
    {
      name: 'cap exceeded at Gate 1 (12.88 × 2 > 25.00)',
      task: { ...BLACK_M, quantity: 2, maxTotalPriceCent: 2500 },
      reason: 'GATE1_OVER_CAP',
      facts: {
        kind: 'gate1_over_cap',
        unit_price_cent: 1288,
        quantity: 2,
        total_cent: 2576,
        max_total_price_cent: 2500,
      },
    },
    {
      name: 'cap exceeded at Gate 2 with a non-linear total (Gate 1 25.76 passes, panel total 32.76 > 30.00)',
      task: { ...BLACK_M, quantity: 2, maxTotalPriceCent: 3000 },
      reason: 'GATE2_OVER_CAP',
      facts: { kind: 'panel_total_over_cap', panel_total_cent: 3276, max_total_price_cent: 3000 },
    },
    {
      name: 'price change right after Gate 1',
      task: { ...BLACK_M, quantity: 1, maxTotalPriceCent: 4000 },
      faults: { price_change: { goods_id: '937122477375', after: 'gate1', price_cent: 1500 } },
      reason: 'PRICE_CHANGED',
      facts: expect.objectContaining({ kind: 'panel_total_moved', gate2_panel_total_cent: 1288 }) as Record<
        string,
        unknown
      >,
    },
    {
      name: 'price change right after Gate 2 (seen on the Gate 3 read)',
      task: { ...BLACK_M, quantity: 2, maxTotalPriceCent: 5000 },
      faults: {
        price_change: { goods_id: '937122477375', after: 'gate2', price_cent: 1500, tier_totals_cent: { '2': 3900 } },
      },
      reason: 'PRICE_CHANGED',
      facts: expect.objectContaining({ kind: 'panel_total_moved', gate2_panel_total_cent: 3276 }) as Record<
        string,
        unknown
      >,
    },
    {
      name: 'quantity cannot be set: stock 2, "+" disabled before 3',
      task: {
        goodsId: '600000000104',
        options: { 颜色分类: '粉色', 尺码: 'L' },
        quantity: 3,
        maxTotalPriceCent: 90000,
      },
      reason: 'QUANTITY_OVER_STOCK',
      facts: { kind: 'plus_disabled', at: 2, wanted: 3 },
    },
    {
      name: 'duplicate submit control',
      task: { ...BLACK_M, quantity: 1, maxTotalPriceCent: 2000 },
      faults: { duplicate_submit_control: true },
      reason: 'SUBMIT_CONTROL_NOT_UNIQUE',
      facts: { kind: 'submit_control_count', label: '提交订单', count: 2 },
    },
    {
      name: 'missing option (红红 is not 红)',
      task: {
        goodsId: '600000000101',
        options: { 颜色: '红红', 尺码: 'S' },
        quantity: 1,
        maxTotalPriceCent: 2000,
        // collected when the shop still called it 红红: the admin takes the draft, the phone finds no 红红
        asCollected: renamed('红', '红红'),
      },
      reason: 'OPTION_NOT_FOUND',
      facts: {
        kind: 'option_missing',
        dimension: '颜色',
        option: '红红',
        shown: expect.arrayContaining(['红', '粉红']),
      },
    },
    {
      name: 'out-of-stock option (白色/L)',
      task: {
        goodsId: '937122477375',
        options: { 颜色分类: '白色', 尺码: 'L' },
        quantity: 1,
        maxTotalPriceCent: 5000,
        // in stock when collected, sold out since
        asCollected: restocked,
      },
      reason: 'OPTION_UNAVAILABLE',
      // 白色 is in stock in other sizes: L is the choice the panel refuses once 白色 is selected
      facts: { kind: 'option_sold_out', dimension: '尺码', option: 'L' },
    },
    {
      name: 'captcha when the goods open',
      task: { ...BLACK_M, quantity: 1, maxTotalPriceCent: 2000 },
      faults: { captcha_on: 'open' },
      reason: 'CAPTCHA_REQUIRED',
      noTapsAtAll: true,
    },
    // read through the agent the same page completes (live.test.ts); uiautomator refuses it
    ...(TEST_CHANNEL === 'dump'
      ? [
          {
            name: 'the goods page never goes idle (a countdown): uiautomator refuses its dump',
            task: { ...BLACK_M, quantity: 1, maxTotalPriceCent: 2000 },
            faults: { never_idle: ['goods_detail'] },
            reason: 'HIERARCHY_UNAVAILABLE',
            noTapsAtAll: true,
          },
        ]
      : []),
    {
      name: 'captcha instead of the spec panel',
      task: { ...BLACK_M, quantity: 1, maxTotalPriceCent: 2000 },
      faults: { captcha_on: 'panel' },
      reason: 'CAPTCHA_REQUIRED',
    },
    {
      name: 'delisted goods',
      task: {
        goodsId: '600000000105',
        options: { 颜色分类: '黑色', 尺码: 'M' },
        quantity: 1,
        maxTotalPriceCent: 9000,
        // on sale when collected, delisted since
        asCollected: (g) => restocked({ ...g, status: 'on_sale' }),
      },
      reason: 'GOODS_DELISTED',
      noTapsAtAll: true,
    },
  ];

  it.each(cases)(
    '$name → NEEDS_MANUAL $reason, no order, no 提交订单 tap',
    async ({ task, faults, reason, noTapsAtAll, facts }) => {
      if (faults) rig.sim.phone(rig.serial).setFaults(faults);
      const id = await rig.purchase(task);
      const t = await rig.waitFor(id, ['NEEDS_MANUAL', 'WAITING_PAYMENT', 'RECONCILIATION_REQUIRED', 'DRY_RUN_PASSED']);
      expect({ status: t.status, reason: t.reason_code }).toEqual({ status: 'NEEDS_MANUAL', reason });
      expect(t.next_step_zh).toBeTruthy();
      if (facts) {
        // the stop reaches the answer as data, on the task and on the timeline entry that recorded it
        expect(t.reason_facts).toEqual(facts);
        expect(t.timeline.findLast((e) => e.status === 'NEEDS_MANUAL')?.facts).toEqual(facts);
      }
      expect(t.submission).toBeNull();
      expect(rig.orders()).toHaveLength(0);
      expect(rig.submitTaps()).toHaveLength(0);
      if (noTapsAtAll) expect(rig.taps()).toHaveLength(0);
      expect(rig.submissionRows().filter((r) => r.task_id === id)).toHaveLength(0);
    },
  );

  // A phone on an unprofiled version takes no claim at all (its health is read before each claim):
  // the task waits for a phone that can buy it, untouched, and the reason is on 设备. The
  // APP_VERSION_UNSUPPORTED stop stays for a version that changes after that reading.
  it('unknown app version → no claim, the task stays PENDING with no tap, the reason on 设备', async () => {
    rig.sim.phone(rig.serial).setFaults({ app_version: '8.18.0' });
    const id = await rig.purchase({ ...BLACK_M, quantity: 1, maxTotalPriceCent: 2000 });
    const deadline = Date.now() + 60_000;
    let blockedBy: string | undefined;
    while (Date.now() < deadline && blockedBy !== 'APP_VERSION_UNPROFILED') {
      const devices = (await rig.op.get('/api/devices')).body as DeviceView[];
      blockedBy = devices.find((d) => d.device_id === rig.device.deviceId)?.claim_block?.reason_code;
      if (blockedBy !== 'APP_VERSION_UNPROFILED') await new Promise((r) => setTimeout(r, 500));
    }
    expect(blockedBy).toBe('APP_VERSION_UNPROFILED');
    expect((await rig.task(id)).status).toBe('PENDING');
    expect(rig.taps()).toHaveLength(0);
    expect(rig.orders()).toHaveLength(0);
    // cancelled before the phone is healthy again, so no later case finds it waiting
    expect((await rig.op.post(`/api/tasks/${id}/cancel`)).status).toBe(200);
    expect((await rig.waitFor(id, ['CANCELED'])).status).toBe('CANCELED');
    expect(rig.taps()).toHaveLength(0);
  });

  it('红 beside 粉红 and 红色系: the live order is for exactly 红', async () => {
    const id = await rig.purchase({
      goodsId: '600000000101',
      options: { 颜色: '红', 尺码: 'S' },
      quantity: 1,
      maxTotalPriceCent: 2000,
    });
    const t = await rig.waitFor(id, ['WAITING_PAYMENT', 'NEEDS_MANUAL', 'RECONCILIATION_REQUIRED']);
    expect(t.status).toBe('WAITING_PAYMENT');
    expect(rig.orders()).toEqual([
      expect.objectContaining({ goods_id: '600000000101', options: ['红', 'S'], total_cent: 990 }),
    ]);
    expect(t.pdd_order_no).toBe(rig.orders()[0]?.order_no);
  });

  it('NEEDS_MANUAL → reset to DRAFT (the safe next step); the old authorization is not revived', async () => {
    const id = await rig.purchase({ ...BLACK_M, quantity: 2, maxTotalPriceCent: 2500 });
    const stopped = await rig.waitFor(id, ['NEEDS_MANUAL']);
    const reset = await rig.op.post(`/api/tasks/${id}/reset`);
    expect(reset.status).toBe(200);
    const draft = await rig.waitFor(id, ['DRAFT']);
    expect(draft.authorization?.id).toBe(stopped.authorization?.id);
    expect(draft.authorization?.status).toBe('ABANDONED');
  });
});
