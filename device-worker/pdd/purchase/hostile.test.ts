import type { PhoneSim } from '../../../sim/phone';
import type { FinalPanelReading, PurchaseTarget } from '../../../domain/contracts/device-activities';
import { CounterClock } from '../../counters';
import { DeviceError, isDeviceError } from '../../errors';
import { SubmissionLedger } from '../../ledger/submissions';
import { StepLog } from '../../step-log';
import { collectGoods } from '../collect';
import { profileForVersion } from '../profile';
import { PddSession } from '../session';
import { screenMayBeCaptured } from './evidence';
import { prepareFinalPanel } from './prepare';
import { PURCHASE_8_17_0 } from './profile';
import { observeAfterTap, readPendingOrderList, submitFinalPanel, SubmitRefused } from './submit';
import { FAST_TIMING, phoneAdb, purchaseTarget, purchasePhone, usePurchaseRig } from './testkit';

/**
 * The hostile app on the phone simulator, over real adbkit, with the real app's ids (`…:id/pdd`
 * or none): every profiled interstitial at every moment before the fence is closed by its one
 * close control and the purchase goes on; every page is its own stop; an unprofiled overlay stops
 * with no tap inside it; after the submit tap nothing is tapped again.
 */
const FAST = FAST_TIMING;
const SERIAL = 'hostile-phone';
const GOODS = '937122477375';
const OPTIONS = { 颜色分类: '黑色', 尺码: 'M' };
const TEMPLATES = [
  'update_prompt',
  'red_packet',
  'cash_gift',
  'subsidy_coupon',
  'free_order',
  'order_success',
  'teen_mode',
  'notification_prompt',
  'float_video',
  'limited_deal_mask',
];
const BEFORE_FENCE = ['open', 'panel', 'quantity', 'final_panel'] as const;

let sim: PhoneSim;
let ledger: SubmissionLedger;
usePurchaseRig(
  SERIAL,
  (rig) => ({ sim, ledger } = rig),
  (phoneSim) => phoneSim.phone(SERIAL).setFaults({ id_style: 'generic' }),
);

async function control(method: string, route: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`http://127.0.0.1:${sim.controlPort}${route}`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (res.status !== 200) throw new Error(`${method} ${route}: ${res.status} ${await res.text()}`);
  return res.json();
}
const setOverlays = (overlays: object[]) => control('PUT', `/devices/${SERIAL}/overlays`, { overlays });
const faults = (f: object) => sim.phone(SERIAL).setFaults({ id_style: 'generic', ...f });

const target = (quantity = 1, maxTotalPriceCent = 4000): PurchaseTarget =>
  purchaseTarget(GOODS, { options: OPTIONS, quantity, maxTotalPriceCent });

function phone(t: PurchaseTarget, readOnly = false) {
  const { session, guard, steps } = purchasePhone({ sim, ledger }, SERIAL, t, { timing: FAST });
  return { session: session(readOnly), guard, steps };
}

async function prepare(t: PurchaseTarget) {
  const p = phone(t);
  const reading: Partial<FinalPanelReading> = {};
  const result = await prepareFinalPanel(p.session, PURCHASE_8_17_0, t, reading, { evidence: async () => {} }).catch(
    (e: unknown) => e as DeviceError,
  );
  return { ...p, result };
}

const code = (r: unknown) => (isDeviceError(r) ? r.code : 'REACHED_FINAL_PANEL');
const taps = () => sim.phone(SERIAL).taps;
const overlayTaps = () => taps().filter((x) => x.overlay !== null);
const submitTaps = () => taps().filter((x) => [x.target, x.node].some((m) => (m?.text ?? '').startsWith('提交订单')));
const dismissals = (steps: StepLog) => steps.entries.filter((e) => e.step === 'dismiss_interstitial');

describe('profiled interstitials before the fence: one tap on the close control, then on', () => {
  it.each(TEMPLATES)('%s at open, panel, quantity and final_panel', async (template) => {
    for (const when of BEFORE_FENCE) {
      sim.phone(SERIAL).reset();
      faults({});
      await setOverlays([{ template, when }]);
      const { result, steps } = await prepare(target());
      expect({ when, code: code(result) }).toEqual({ when, code: 'REACHED_FINAL_PANEL' });
      expect((result as FinalPanelReading).gate3SubmitAmountCent).toBe(1288);
      expect(dismissals(steps).map((e) => [when, e.details?.['name']])).toEqual([[when, template]]);
      // the one tap inside the overlay closed it; none reached anything else of it
      expect(overlayTaps().map((x) => [when, x.overlay, x.overlay_action])).toEqual([[when, template, 'dismiss']]);
      expect(submitTaps()).toHaveLength(0);
      expect(sim.phone(SERIAL).app.orders).toHaveLength(0);
    }
  });

  it('at most three per purchase: the fourth stops, untouched', async () => {
    await setOverlays([
      { template: 'red_packet', when: 'open' },
      { template: 'teen_mode', when: 'panel' },
      { template: 'cash_gift', when: 'quantity' },
      { template: 'order_success', when: 'final_panel' },
    ]);
    const { result, steps } = await prepare(target());
    expect(code(result)).toBe('UNKNOWN_OVERLAY');
    expect(dismissals(steps)).toHaveLength(3);
    expect(overlayTaps().map((x) => x.overlay_action)).toEqual(['dismiss', 'dismiss', 'dismiss']);
  });

  it('an update prompt that keeps coming back past the budget is APP_UPDATE_PROMPT; 立即升级 is never tapped', async () => {
    await setOverlays([{ template: 'update_prompt', when: 'panel', times: 5 }]);
    const { result } = await prepare(target());
    expect(code(result)).toBe('APP_UPDATE_PROMPT');
    expect(overlayTaps().every((x) => x.overlay_action === 'dismiss')).toBe(true);
  });
});

describe('an overlay that is not profiled', () => {
  const node = (text: string, desc: string, clickable: boolean, bounds: number[], action: string) => ({
    text,
    resource_id: '',
    class: text ? 'android.widget.TextView' : 'android.widget.ImageView',
    content_desc: desc,
    clickable,
    bounds,
    action,
  });
  const promo = (
    when: string,
    bounds: number[],
    button: number[],
    title = [100, 650, 980, 760],
    close = [900, 620, 1000, 720],
  ) => ({
    id: 'promo-1',
    when,
    bounds,
    nodes: [
      node('限时福利', '', false, title, 'none'),
      node('立即领取 ¥0.01 抢购', '', true, button, 'navigate:home'),
      node('', '关闭', true, close, 'dismiss'),
    ],
  });

  it.each(BEFORE_FENCE)('at %s stops UNKNOWN_OVERLAY with no tap inside it', async (when) => {
    await setOverlays([promo(when, [60, 600, 1020, 1900], [140, 1700, 940, 1850])]);
    const { result } = await prepare(target());
    expect(code(result)).toBe('UNKNOWN_OVERLAY');
    expect(overlayTaps()).toHaveLength(0);
    expect(submitTaps()).toHaveLength(0);
  });

  it('a popup over the bottom bar, the goods page signature still in the dump underneath: 0 taps on the bar', async () => {
    await setOverlays([
      promo('open', [0, 2000, 1080, 2376], [36, 2196, 1044, 2356], [100, 2020, 800, 2100], [960, 2020, 1060, 2120]),
    ]);
    const { result } = await prepare(target());
    expect(code(result)).toBe('UNKNOWN_OVERLAY');
    expect(taps()).toHaveLength(0);
  });
});

describe('each challenge page its own stop', () => {
  const pages: [string, string][] = [
    ['login', 'LOGIN_REQUIRED'],
    ['risk_slider', 'CAPTCHA_REQUIRED'],
    ['risk_face', 'RISK_FACE'],
    ['risk_sms', 'RISK_SMS'],
    ['app_update', 'APP_UPDATE_PROMPT'],
    ['sold_out', 'SOLD_OUT'],
    ['address_missing', 'ADDRESS_MISSING'],
  ];
  it.each(pages)('%s → %s at every moment before the fence, nothing tapped on it', async (page, stop) => {
    for (const when of BEFORE_FENCE) {
      sim.phone(SERIAL).reset();
      faults({ page_on: { [when]: page } });
      const { result } = await prepare(target());
      expect({ when, code: code(result) }).toEqual({ when, code: stop });
      expect(taps().filter((x) => x.screen === page)).toHaveLength(0);
      expect(sim.phone(SERIAL).app.orders).toHaveLength(0);
    }
  });

  it('network error: the goods link is opened again once, by intent, and the purchase goes on; twice → NETWORK_ERROR', async () => {
    for (const when of BEFORE_FENCE) {
      sim.phone(SERIAL).reset();
      faults({ page_on: { [when]: 'network_error' } });
      const once = await prepare(target());
      expect({ when, code: code(once.result) }).toEqual({ when, code: 'REACHED_FINAL_PANEL' });
      expect(once.steps.entries.filter((e) => e.step === 'reopen_goods')).toHaveLength(1);
      expect(taps().filter((x) => x.screen === 'network_error')).toHaveLength(0);
    }
    sim.phone(SERIAL).reset();
    faults({ page_on: { open: 'network_error' }, page_times: 2 });
    const twice = await prepare(target());
    expect(code(twice.result)).toBe('NETWORK_ERROR');
    expect(taps()).toHaveLength(0);
  });
});

describe('after the submit tap nothing is tapped again', () => {
  it.each(TEMPLATES)(
    '%s right after the submit: one order, one tap, the outcome read, not closed',
    async (template) => {
      await setOverlays([{ template, when: 'after_submit' }]);
      const t = target();
      const { result } = await prepare(t);
      expect(code(result)).toBe('REACHED_FINAL_PANEL');
      const expected = result as FinalPanelReading;
      const submit = phone(t, true);
      const done = await submitFinalPanel(submit.session, PURCHASE_8_17_0, submit.guard, ledger, {
        target: t,
        submissionId: `s-${t.authorizationId}`,
        expected,
        workflowId: 'wf',
      });
      const before = taps().length;
      const after = phone(t, true);
      const photographed: boolean[] = [];
      const seen = await observeAfterTap(
        after.session,
        PURCHASE_8_17_0,
        { target: t, expected, tappedAt: done.tappedAt },
        async () => void photographed.push(screenMayBeCaptured(after.session.lastDump(), after.session.profile)),
      );
      expect(seen.outcome).toBe('unknown');
      // the dialog sits over the cashier sheet: no picture of a payment page
      expect(photographed).toEqual([false]);
      expect(taps()).toHaveLength(before);
      expect(submitTaps()).toHaveLength(1);
      expect(overlayTaps()).toHaveLength(0);
      expect(sim.phone(SERIAL).app.orders).toHaveLength(1);
    },
  );

  it('an interstitial over the final panel after the fence: submitOnce refuses, nothing tapped', async () => {
    const t = target();
    const { result, steps } = await prepare(t);
    expect(code(result)).toBe('REACHED_FINAL_PANEL');
    expect(dismissals(steps)).toHaveLength(0);
    // due at the final panel's next dump: submitOnce's own re-read, however many dumps prepare made
    await setOverlays([{ template: 'red_packet', when: 'final_panel' }]);
    const before = taps().length;
    const submit = phone(t, true);
    await expect(
      submitFinalPanel(submit.session, PURCHASE_8_17_0, submit.guard, ledger, {
        target: t,
        submissionId: `s-${t.authorizationId}`,
        expected: result as FinalPanelReading,
        workflowId: 'wf',
      }),
    ).rejects.toBeInstanceOf(SubmitRefused);
    expect(taps()).toHaveLength(before);
    expect(sim.phone(SERIAL).app.orders).toHaveLength(0);
  });

  it.each([
    ['login', 'unknown'],
    ['risk_slider', 'captcha'],
    ['risk_face', 'captcha'],
    ['risk_sms', 'captcha'],
    ['network_error', 'unknown'],
    ['app_update', 'unknown'],
    ['sold_out', 'unknown'],
    ['address_missing', 'unknown'],
  ])('%s right after the submit: read as %s, never tapped, never re-opened', async (page, outcome) => {
    const t = target();
    const { result } = await prepare(t);
    expect(code(result)).toBe('REACHED_FINAL_PANEL');
    const expected = result as FinalPanelReading;
    faults({ page_on: { after_submit: page } });
    const submit = phone(t, true);
    const done = await submitFinalPanel(submit.session, PURCHASE_8_17_0, submit.guard, ledger, {
      target: t,
      submissionId: `s-${t.authorizationId}`,
      expected,
      workflowId: 'wf',
    });
    const before = taps().length;
    const after = phone(t, true);
    const seen = await observeAfterTap(
      after.session,
      PURCHASE_8_17_0,
      { target: t, expected, tappedAt: done.tappedAt },
      async () => {},
    );
    expect(seen.outcome).toBe(outcome);
    expect(taps()).toHaveLength(before);
    expect(after.steps.entries.filter((e) => e.step === 'reopen_goods')).toHaveLength(0);
    expect(submitTaps()).toHaveLength(1);
  });

  it('every stop page in place of the orders list is read, never tapped, never re-opened', async () => {
    for (const page of [
      'login',
      'risk_slider',
      'risk_face',
      'risk_sms',
      'network_error',
      'app_update',
      'sold_out',
      'address_missing',
    ]) {
      sim.phone(SERIAL).reset();
      faults({ page_on: { orders: page } });
      const read = phone(target(), true);
      const orders = readPendingOrderList(read.session, PURCHASE_8_17_0, {
        goodsId: GOODS,
        title: null,
        dimensionNames: ['颜色分类', '尺码'],
      });
      await expect(orders).rejects.toBeInstanceOf(DeviceError);
      expect([page, taps()]).toEqual([page, []]);
      expect(read.steps.entries.filter((e) => e.step === 'reopen_goods')).toHaveLength(0);
    }
  });

  it.each(TEMPLATES)('%s over the orders list is read, never closed', async (template) => {
    await setOverlays([{ template, when: 'orders' }]);
    const read = phone(target(), true);
    await expect(
      readPendingOrderList(read.session, PURCHASE_8_17_0, {
        goodsId: GOODS,
        title: null,
        dimensionNames: ['颜色分类', '尺码'],
      }),
    ).rejects.toBeInstanceOf(DeviceError);
    expect(taps()).toHaveLength(0);
  });
});

describe('generic ids end to end', () => {
  it('collect reads every option and price as with descriptive ids', async () => {
    const profile = profileForVersion('8.17.0');
    const adb = phoneAdb(sim.adbPort, SERIAL);
    const run = () => collectGoods(new PddSession(adb, profile, new CounterClock(), new StepLog(), FAST), GOODS);
    const generic = await run();
    sim.phone(SERIAL).reset();
    const descriptive = await run();
    const strip = (s: typeof generic) => ({ ...s, captured_at: '' });
    expect(strip(generic)).toEqual(strip(descriptive));
    expect(generic.skus.length).toBeGreaterThan(1);
  });

  it('live: one submit tap, one order, read back from the orders list by intent', async () => {
    const t = target(2, 5000);
    const { result } = await prepare(t);
    expect(code(result)).toBe('REACHED_FINAL_PANEL');
    const expected = result as FinalPanelReading;
    const submit = phone(t, true);
    const done = await submitFinalPanel(submit.session, PURCHASE_8_17_0, submit.guard, ledger, {
      target: t,
      submissionId: `s-${t.authorizationId}`,
      expected,
      workflowId: 'wf',
    });
    const after = phone(t, true);
    const seen = await observeAfterTap(
      after.session,
      PURCHASE_8_17_0,
      { target: t, expected, tappedAt: done.tappedAt },
      async () => {},
    );
    const order = sim.phone(SERIAL).app.orders[0];
    expect(seen).toMatchObject({ outcome: 'pending_payment', orderNo: order?.order_no });
    expect(sim.phone(SERIAL).app.orders).toHaveLength(1);
    expect(submitTaps()).toHaveLength(1);
  });
});
