import type { PhoneSim } from '../../../sim/phone';
import type { Faults } from '../../../sim/phone/faults';
import type { FinalPanelReading, PurchaseTarget } from '../../../domain/contracts/device-activities';
import { isDeviceError } from '../../errors';
import { SubmissionLedger } from '../../ledger/submissions';
import { DEFAULT_TIMING, type SessionTiming } from '../session';
import { memoryDumpMemory } from '../session/dumps';
import { prepareFinalPanel } from './prepare';
import { PURCHASE_8_17_0 } from './profile';
import { observeAfterTap, submitFinalPanel } from './submit';
import { purchaseTarget, purchasePhone, usePurchaseRig } from './testkit';

/**
 * With the pauses gone (none after `am start`, an option or the swipe — and here none after the
 * entry tap or back either), a loading or a stale dump is never taken as proof: at the worst the
 * simulator offers (`stale_dump_rate` 1, `loading_dumps` up to 10) a live purchase either completes
 * correctly — one submit tap, the order read back — or stops before any tap, and no tap ever lands
 * on the loading screen, an overlay, a payment control or anything but what the flow meant.
 */
const NO_PAUSE: SessionTiming = { ...DEFAULT_TIMING, navigationSettleMs: 0, tapSettleMs: 0, swipeSettleMs: 0 };
const SERIAL = 'waits-phone';
const GOODS = '937122477375';

let sim: PhoneSim;
let ledger: SubmissionLedger;
usePurchaseRig(SERIAL, (rig) => {
  sim = rig.sim;
  ledger = rig.ledger;
});

const target = (quantity: number): PurchaseTarget => purchaseTarget(GOODS, { quantity });

/** One live purchase as the three activities run it (a session each); the error where it stopped. */
async function livePurchase(t: PurchaseTarget) {
  // the phone's last dump, remembered across its sessions as the device worker does
  const { guard, steps, session } = purchasePhone({ sim, ledger }, SERIAL, t, {
    timing: NO_PAUSE,
    memory: memoryDumpMemory(),
  });
  const reading: Partial<FinalPanelReading> = {};
  try {
    await prepareFinalPanel(session(false), PURCHASE_8_17_0, t, reading, { evidence: async () => {} });
    const expected = reading as FinalPanelReading;
    const { tappedAt } = await submitFinalPanel(session(true), PURCHASE_8_17_0, guard, ledger, {
      target: t,
      submissionId: `s-${t.authorizationId}`,
      expected,
      workflowId: 'wf',
    });
    const seen = await observeAfterTap(
      session(true),
      PURCHASE_8_17_0,
      { target: t, expected, tappedAt },
      async () => {},
    );
    return { seen, stop: null, steps, reading };
  } catch (err) {
    if (!isDeviceError(err)) throw err;
    return { seen: null, stop: err.code, steps, reading };
  }
}

function expectNoWrongTap(quantity: number): void {
  const taps = sim.phone(SERIAL).taps;
  const label = (x: (typeof taps)[number]) => `${x.target?.text ?? ''}${x.node?.text ?? ''}`;
  // never on the loading screen, an overlay, a payment control; only the flow's own targets
  expect(taps.filter((x) => x.screen !== 'goods_detail' && x.screen !== 'sku_panel')).toEqual([]);
  expect(taps.filter((x) => x.overlay !== null)).toEqual([]);
  expect(taps.filter((x) => /支付|付款/.test(label(x)))).toEqual([]);
  const submits = taps.filter((x) => label(x).startsWith('提交订单'));
  expect(submits.length).toBeLessThanOrEqual(1);
  // entry, two options, quantity - 1 pluses, at most the one submit
  expect(taps.length).toBeLessThanOrEqual(3 + (quantity - 1) + submits.length);
  expect(sim.phone(SERIAL).app.orders).toHaveLength(submits.length);
}

function expectCompletedOrStopped(r: Awaited<ReturnType<typeof livePurchase>>, quantity: number): void {
  expectNoWrongTap(quantity);
  const orders = sim.phone(SERIAL).app.orders;
  if (r.seen) {
    expect(r.seen).toMatchObject({ outcome: 'pending_payment', orderNo: orders[0]?.order_no });
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({ goods_id: GOODS, options: ['黑色', 'M'], quantity });
    expect(r.reading).toMatchObject({ options: { 颜色分类: '黑色', 尺码: 'M' }, quantityRead: quantity });
  } else {
    // a stop is a timeout on a screen that never settled, before any submit tap
    expect(r.stop).toBe('SCREEN_TIMEOUT');
    expect(orders).toHaveLength(0);
  }
}

const stale = (r: Awaited<ReturnType<typeof livePurchase>>) => r.steps.entries.filter((e) => e.step === 'stale_dump');

describe('no pauses, stale and loading dumps at their worst', () => {
  it.each<[string, Faults, number]>([
    ['every first dump after a navigation stale, 6 loading dumps', { stale_dump_rate: 1, loading_dumps: 6 }, 1],
    ['the same with three pieces (each "+" read back)', { stale_dump_rate: 1, loading_dumps: 6 }, 3],
    ['half the first dumps stale, 3 loading dumps', { stale_dump_rate: 0.5, loading_dumps: 3, seed: 7 }, 2],
  ])('%s: completes, every step proven by a settled dump', async (_name, faults, quantity) => {
    sim.phone(SERIAL).setFaults(faults);
    const r = await livePurchase(target(quantity));
    expect(r.stop).toBeNull();
    expectCompletedOrStopped(r, quantity);
    if (faults.stale_dump_rate === 1) expect(stale(r).length).toBeGreaterThanOrEqual(3);
  });

  it('stale_dump_rate 1 and loading_dumps 10 (more than one wait may take): stops on the goods link, nothing tapped', async () => {
    sim.phone(SERIAL).setFaults({ stale_dump_rate: 1, loading_dumps: 10 });
    const r = await livePurchase(target(1));
    expectCompletedOrStopped(r, 1);
    expect(r.stop).toBe('SCREEN_TIMEOUT');
    expect(sim.phone(SERIAL).taps).toEqual([]);
  });

  it('realistic latency, no settle pause anywhere: the loading marker after the entry tap, the stale first dumps and the loading after am start and the submit are all re-dumped', async () => {
    sim.phone(SERIAL).setFaults({ latency: 'realistic', stale_dump_rate: 1, loading_dumps: 2, seed: 11 });
    const r = await livePurchase(target(1));
    expectCompletedOrStopped(r, 1);
    expect(r.stop).toBeNull();
    expect(stale(r).length).toBeGreaterThanOrEqual(3);
  }, 240_000);
});
