import { defaultCatalog, type PhoneSim } from '../../../sim/phone';
import type { FinalPanelReading, PurchaseTarget } from '../../../domain/contracts/device-activities';
import { CounterClock } from '../../counters';
import { DeviceError, isDeviceError } from '../../errors';
import { SubmissionLedger } from '../../ledger/submissions';
import { StepLog } from '../../step-log';
import { profileForVersion } from '../profile';
import { DEFAULT_TIMING } from '../session';
import { TapRefused } from './guard';
import { readFinal } from './panel-gates';
import { prepareFinalPanel } from './prepare';
import { readPanelState } from '../panel-state';
import { parseUiDump, topmostAt, type UiNode } from '../ui-xml';
import { PURCHASE_8_17_0 } from './profile';
import { PurchaseSession } from './purchase-session';
import { observeAfterTap, submitFinalPanel, SubmitRefused } from './submit';
import { phoneAdb, purchaseTarget, purchasePhone, usePurchaseRig } from './testkit';

const FAST = { ...DEFAULT_TIMING, navigationSettleMs: 0, tapSettleMs: 0, swipeSettleMs: 0, loadingPollMs: 20 };
const SERIAL = 'unit-phone';

let sim: PhoneSim;
let ledger: SubmissionLedger;
let ledgerPath: string;
usePurchaseRig(SERIAL, (rig) => ({ sim, ledger, ledgerPath } = rig));

const target = (
  goodsId: string,
  options: Record<string, string>,
  quantity: number,
  maxTotalPriceCent: number,
): PurchaseTarget => purchaseTarget(goodsId, { options, quantity, maxTotalPriceCent });

function phone(t: PurchaseTarget) {
  const { session, guard, adb } = purchasePhone({ sim, ledger }, SERIAL, t, { timing: FAST });
  return { session: session(), guard, adb };
}

const taps = () => sim.phone(SERIAL).taps;
const submitTaps = () =>
  taps().filter(
    (t) => (t.target?.text ?? '').startsWith('提交订单') || t.target?.resource_id?.endsWith('ll_sku_confirm'),
  );

async function prepare(t: PurchaseTarget): Promise<{
  reading: Partial<FinalPanelReading>;
  result: FinalPanelReading | DeviceError;
  p: ReturnType<typeof phone>;
}> {
  const p = phone(t);
  const reading: Partial<FinalPanelReading> = {};
  const result = await prepareFinalPanel(p.session, PURCHASE_8_17_0, t, reading, { evidence: async () => {} }).catch(
    (e: unknown) => {
      // a stop: the page is not what the task authorised (a phone fault would be retryable)
      if (isDeviceError(e) && !e.retryable) return e;
      throw e;
    },
  );
  return { reading, result, p };
}

async function stopOf(t: PurchaseTarget): Promise<string> {
  const { result } = await prepare(t);
  if (!(result instanceof DeviceError)) throw new Error('expected a stop');
  return result.reason;
}

describe('prepare: to the final panel, nothing irreversible', () => {
  it('black/M × 2: gate 1 reads the unit, gate 2 the non-linear total, gate 3 the control; 提交订单 untouched', async () => {
    const { result } = await prepare(target('937122477375', { 颜色分类: '黑色', 尺码: 'M' }, 2, 4000));
    expect(result).toMatchObject({
      options: { 颜色分类: '黑色', 尺码: 'M' },
      quantityRead: 2,
      gate1UnitPriceCent: 1288,
      gate2PanelTotalCent: 3276,
      gate3SubmitAmountCent: 3276,
      title: '【现货】春秋款西装外套男士休闲单西',
    });
    expect(submitTaps()).toHaveLength(0);
    expect(sim.phone(SERIAL).app.orders).toHaveLength(0);
  });

  it('红 beside 粉红 and 红色系 selects exactly 红; a missing option stops OPTION_NOT_FOUND', async () => {
    const { result } = await prepare(target('600000000101', { 颜色: '红', 尺码: 'S' }, 1, 2000));
    expect(result).toMatchObject({
      options: { 颜色: '红', 尺码: 'S' },
      gate1UnitPriceCent: 990,
      gate3SubmitAmountCent: 990,
    });
    expect(await stopOf(target('600000000101', { 颜色: '红红', 尺码: 'S' }, 1, 2000))).toBe('OPTION_NOT_FOUND');
    expect(await stopOf(target('600000000102', { 颜色: '白色', 双数: '100' }, 1, 2000))).toBe('OPTION_NOT_FOUND');
  });

  it('1 beside 10 selects exactly 1', async () => {
    const { result } = await prepare(target('600000000102', { 颜色: '黑色', 双数: '1' }, 1, 2000));
    expect(result).toMatchObject({ options: { 颜色: '黑色', 双数: '1' }, gate1UnitPriceCent: 350 });
  });

  it('sold-out option → OPTION_UNAVAILABLE; over stock → QUANTITY_OVER_STOCK', async () => {
    expect(await stopOf(target('937122477375', { 颜色分类: '白色', 尺码: 'L' }, 1, 9000))).toBe('OPTION_UNAVAILABLE');
    expect(await stopOf(target('600000000104', { 颜色分类: '蓝色', 尺码: 'M' }, 1, 9000))).toBe('OPTION_UNAVAILABLE');
    expect(await stopOf(target('600000000104', { 颜色分类: '粉色', 尺码: 'L' }, 3, 90000))).toBe('QUANTITY_OVER_STOCK');
    expect(submitTaps()).toHaveLength(0);
  });

  it('gates: Gate 1 over cap, Gate 2 over cap with a non-linear total', async () => {
    expect(await stopOf(target('937122477375', { 颜色分类: '黑色', 尺码: 'M' }, 2, 2500))).toBe('GATE1_OVER_CAP');
    const { result, reading } = await prepare(target('937122477375', { 颜色分类: '黑色', 尺码: 'M' }, 2, 3000));
    expect((result as DeviceError).reason).toBe('GATE2_OVER_CAP');
    expect(reading).toMatchObject({ gate1UnitPriceCent: 1288, gate2PanelTotalCent: 3276 });
  });

  it('faults: duplicate submit control, price change after gate 1 and after gate 2, captcha, delisted', async () => {
    const ph = sim.phone(SERIAL);
    ph.setFaults({ duplicate_submit_control: true });
    expect(await stopOf(target('937122477375', { 颜色分类: '黑色', 尺码: 'M' }, 1, 4000))).toBe(
      'SUBMIT_CONTROL_NOT_UNIQUE',
    );
    ph.setFaults({ price_change: { goods_id: '937122477375', after: 'gate1', price_cent: 1500 } });
    expect(await stopOf(target('937122477375', { 颜色分类: '黑色', 尺码: 'M' }, 1, 4000))).toBe('PRICE_CHANGED');
    ph.setFaults({
      price_change: { goods_id: '937122477375', after: 'gate2', price_cent: 1500, tier_totals_cent: { '2': 3900 } },
    });
    expect(await stopOf(target('937122477375', { 颜色分类: '黑色', 尺码: 'M' }, 2, 4000))).toBe('PRICE_CHANGED');
    ph.setFaults({ captcha_on: 'open' });
    expect(await stopOf(target('937122477375', { 颜色分类: '黑色', 尺码: 'M' }, 1, 4000))).toBe('CAPTCHA_REQUIRED');
    ph.setFaults({ captcha_on: 'panel' });
    expect(await stopOf(target('937122477375', { 颜色分类: '黑色', 尺码: 'M' }, 1, 4000))).toBe('CAPTCHA_REQUIRED');
    ph.clearFaults();
    expect(await stopOf(target('600000000105', { 颜色分类: '黑色', 尺码: 'M' }, 1, 9000))).toBe('GOODS_DELISTED');
    expect(submitTaps()).toHaveLength(0);
  });
});

describe('quantity read-back', () => {
  it('the final panel reading a different count than the task wants → QUANTITY_READBACK_MISMATCH (read, never assumed)', async () => {
    const t = target('937122477375', { 颜色分类: '黑色', 尺码: 'M' }, 2, 4000);
    const { result, p } = await prepare(t);
    const names = ['颜色分类', '尺码'];
    const values = ['黑色', 'M'];
    const st = await p.session.readScreen('the final panel');
    if (st.screen.kind !== 'sku_panel') throw new Error('not on the panel');
    const state = readPanelState(st.screen.panel, names, p.session.profile, values);
    expect(() =>
      readFinal(
        p.session,
        PURCHASE_8_17_0,
        state,
        names,
        values,
        { ...t, quantity: 3 },
        (result as FinalPanelReading).gate2PanelTotalCent!,
      ),
    ).toThrow(expect.objectContaining({ reason: 'QUANTITY_READBACK_MISMATCH' }));
    expect(submitTaps()).toHaveLength(0);
  });
});

describe('an option shown twice', () => {
  afterAll(() => sim.setCatalog(defaultCatalog()));
  it('the same text twice in a dimension → OPTION_AMBIGUOUS before any option tap', async () => {
    const catalog = defaultCatalog();
    catalog.goods.push({
      goods_id: '600000000999',
      title: '重复规格测试',
      shop_name: '测试店',
      status: 'on_sale',
      dimensions: [
        { name: '颜色', values: ['红', '红'] },
        { name: '尺码', values: ['S'] },
      ],
      skus: [{ options: ['红', 'S'], price_cent: 990, stock: 5 }],
    });
    sim.setCatalog(catalog);
    expect(await stopOf(target('600000000999', { 颜色: '红', 尺码: 'S' }, 1, 2000))).toBe('OPTION_AMBIGUOUS');
    expect(taps().filter((t) => (t.target?.resource_id ?? '').endsWith('tv_sku_option'))).toHaveLength(0);
  });
});

describe('submit once, the ledger and the guard', () => {
  it('one tap, one order; a second submit for the same authorization is refused with no tap, also from a new ledger connection', async () => {
    const t = target('937122477375', { 颜色分类: '黑色', 尺码: 'M' }, 2, 4000);
    const { result, p } = await prepare(t);
    const expected = result as FinalPanelReading;
    const done = await submitFinalPanel(p.session, PURCHASE_8_17_0, p.guard, ledger, {
      target: t,
      submissionId: 'sub-1',
      expected,
      workflowId: 'wf',
    });
    expect(done.tappedAt).toMatch(/Z$/);
    expect(submitTaps()).toHaveLength(1);
    expect(sim.phone(SERIAL).app.orders).toHaveLength(1);
    const row = ledger.get(t.authorizationId);
    expect(row?.irreversible_action_at).toBeTruthy();
    expect(row!.irreversible_action_at <= done.tappedAt).toBe(true);

    const seen = await observeAfterTap(
      p.session,
      PURCHASE_8_17_0,
      { target: t, expected, tappedAt: done.tappedAt },
      async () => {},
    );
    expect(seen.outcome).toBe('pending_payment');
    expect(seen.orderNo).toBe(sim.phone(SERIAL).app.orders[0]?.order_no);

    const restarted = new SubmissionLedger(ledgerPath);
    try {
      const again = phone(t);
      await expect(
        submitFinalPanel(again.session, PURCHASE_8_17_0, again.guard, restarted, {
          target: t,
          submissionId: 'sub-1',
          expected,
          workflowId: 'wf',
        }),
      ).rejects.toBeInstanceOf(SubmitRefused);
      // and no input of any kind for that authorization any more
      await expect(again.session.back(false)).rejects.toBeInstanceOf(TapRefused);
    } finally {
      restarted.close();
    }
    expect(submitTaps()).toHaveLength(1);
    expect(taps().filter((x) => /支付|付款/.test(`${x.target?.text ?? ''}${x.node?.text ?? ''}`))).toHaveLength(0);
  });

  it('refuses, read-only and without a tap, when the panel changed since the fence', async () => {
    const t = target('937122477375', { 颜色分类: '黑色', 尺码: 'M' }, 1, 4000);
    const { result, p } = await prepare(t);
    sim.phone(SERIAL).setFaults({ price_change: { goods_id: '937122477375', after: 'gate1', price_cent: 1300 } });
    await p.adb.dumpUi(); // the change lands right after this dump
    await expect(
      submitFinalPanel(p.session, PURCHASE_8_17_0, p.guard, ledger, {
        target: t,
        submissionId: 's',
        expected: result as FinalPanelReading,
        workflowId: 'wf',
      }),
    ).rejects.toBeInstanceOf(SubmitRefused);
    expect(ledger.get(t.authorizationId)).toBeNull();
    expect(submitTaps()).toHaveLength(0);
  });

  it('the phone drops off ADB exactly at the tap: irreversible_action_at was already durable, the outcome is unknown, and never a second try', async () => {
    const t = target('937122477375', { 颜色分类: '黑色', 尺码: 'M' }, 1, 4000);
    const { result, p } = await prepare(t);
    // the read-only re-read succeeds (by dump or through the agent), then the phone is gone: the tap fails
    const fast = phoneAdb(sim.adbPort, SERIAL, { reconnectMs: 300 });
    const read = fast.dumpUi.bind(fast);
    fast.dumpUi = async () => {
      const out = await read();
      sim.phone(SERIAL).setFaults({ disconnect_after_commands: 0 });
      return out;
    };
    const profile = profileForVersion('8.17.0');
    const session = new PurchaseSession(p.guard.wrap(fast), profile, new CounterClock(), new StepLog(), FAST);
    session.setPurchaseProfile(PURCHASE_8_17_0);
    await expect(
      submitFinalPanel(session, PURCHASE_8_17_0, p.guard, ledger, {
        target: t,
        submissionId: 's',
        expected: result as FinalPanelReading,
        workflowId: 'wf',
      }),
    ).rejects.toThrow(/ADB|not found|not available/i);
    const row = ledger.get(t.authorizationId);
    expect(row?.irreversible_action_at).toBeTruthy();
    expect(row?.tap_error).toBeTruthy();
    sim.phone(SERIAL).clearFaults();
    await expect(
      submitFinalPanel(p.session, PURCHASE_8_17_0, p.guard, ledger, {
        target: t,
        submissionId: 's',
        expected: result as FinalPanelReading,
        workflowId: 'wf',
      }),
    ).rejects.toBeInstanceOf(SubmitRefused);
    expect(submitTaps()).toHaveLength(0);
    expect(sim.phone(SERIAL).app.orders).toHaveLength(0);
  });

  it('the guard refuses payment controls, 提交订单 without the permit, foreign apps and raw input', async () => {
    const t = target('937122477375', { 颜色分类: '黑色', 尺码: 'M' }, 1, 4000);
    const { p } = await prepare(t);
    const dump = p.session.lastDump();
    const confirm = dump.nodes.find((x) => x.resourceId.endsWith('ll_sku_confirm'))!;
    const cx = Math.floor((confirm.bounds.left + confirm.bounds.right) / 2);
    const cy = Math.floor((confirm.bounds.top + confirm.bounds.bottom) / 2);
    const wrapped = p.guard.wrap(p.adb);
    await expect(wrapped.tap(cx, cy, meant(confirm))).rejects.toThrow(/only by submitOnce/);
    // a tap that names no node, or a node the point does not reach, never passes
    await expect(wrapped.tap(cx, cy)).rejects.toThrow(/names no node/);
    const price = dump.nodes.find((x) => x.text.startsWith('¥') || x.text.startsWith('券后'))!;
    await expect(wrapped.tap(cx, cy, meant(price))).rejects.toThrow(/would land on/);
    await expect(wrapped.shell(`input tap ${cx} ${cy}`)).rejects.toBeInstanceOf(TapRefused);
    expect(() => p.guard.permitSubmitTap({ x: cx, y: cy })).toThrow(/irreversible_action_at recorded first/);
    // a cashier sheet: every payment control refused (the guard decides from the dump it saw)
    p.guard.remember(cashierXml());
    const cashier = parseUiDump(cashierXml());
    for (const [x, y] of [
      [540, 2276],
      [540, 1755],
      [540, 1905],
      [540, 1455],
    ] as const)
      expect(() => p.guard.checkTap(x, y, meant(topmostAt(cashier, x, y)!))).toThrow(/payment control/);
    expect(submitTaps()).toHaveLength(0);
  });
});

const meant = (n: UiNode) => ({ order: n.order, className: n.className, bounds: n.bounds, label: 'test' });

function cashierXml(): string {
  const node = (attrs: string, inner = '') =>
    `<node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="com.xunmeng.pinduoduo" content-desc="" clickable="false" enabled="true" selected="false" scrollable="false" ${attrs}>${inner}</node>`;
  const row = (id: string, text: string, top: number, bottom: number) =>
    node(
      `resource-id="com.xunmeng.pinduoduo:id/${id}" clickable="true" bounds="[0,${top}][1080,${bottom}]"`,
      node(`text="${text}" bounds="[40,${top}][1000,${bottom}]"`),
    );
  return `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0">${node(
    'bounds="[0,0][1080,2376]"',
    node(
      'resource-id="com.xunmeng.pinduoduo:id/ll_cashier_panel" bounds="[0,1000][1080,2376]"',
      row('ll_pay_wechat', '微信支付', 1380, 1530) +
        row('ll_pay_free', '免密支付', 1680, 1830) +
        row('ll_pay_later', '先用后付', 1830, 1980) +
        row('ll_pay_confirm', '立即支付', 2196, 2356),
    ),
  )}</hierarchy>`;
}
