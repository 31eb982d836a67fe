import type { PhoneSim } from '../../../sim/phone';
import type { FinalPanelReading, PurchaseTarget } from '../../../domain/contracts/device-activities';
import type { AdbDevice } from '../../adb/adb-device';
import type { UiDumpOutput } from '../../adb/output';
import { CounterClock } from '../../counters';
import { isDeviceError } from '../../errors';
import type { SubmissionLedger } from '../../ledger/submissions';
import { StepLog } from '../../step-log';
import { collectGoods } from '../collect';
import { profileForVersion } from '../profile';
import { PddSession } from '../session';
import { prepareFinalPanel } from './prepare';
import { PURCHASE_8_17_0 } from './profile';
import { submitFinalPanel } from './submit';
import { FAST_TIMING, phoneAdb, purchaseTarget, purchasePhone, TEST_CHANNEL, usePurchaseRig } from './testkit';

/**
 * A screen uiautomator cannot read because it never goes idle (the sim's `never_idle`, as a
 * countdown does on a real phone): the first refused dump stops the purchase — and collect — with
 * HIERARCHY_UNAVAILABLE. No dump is asked again, and nothing is tapped after the refusal.
 */
const SERIAL = 'never-idle-phone';
const GOODS = '937122477375';

let sim: PhoneSim;
let ledger: SubmissionLedger;
usePurchaseRig(SERIAL, (rig) => {
  sim = rig.sim;
  ledger = rig.ledger;
});

/** The phone over ADB, every dump's outcome in `dumps` (`xml` or the refusal). */
function countedAdb(): { adb: AdbDevice; dumps: string[] } {
  const adb = phoneAdb(sim.adbPort, SERIAL);
  const dumps: string[] = [];
  const read = adb.dumpUi.bind(adb);
  adb.dumpUi = async (): Promise<UiDumpOutput> => {
    const out = await read();
    dumps.push(out.kind === 'xml' ? 'xml' : out.message);
    return out;
  };
  return { adb, dumps };
}

/** A live purchase as its first two activities run it; the code it stopped with. */
async function livePurchase(t: PurchaseTarget): Promise<{ stop: string | null; dumps: string[]; steps: StepLog }> {
  const { adb, dumps } = countedAdb();
  const { guard, steps, session } = purchasePhone({ sim, ledger }, SERIAL, t, { adb });
  const reading: Partial<FinalPanelReading> = {};
  try {
    await prepareFinalPanel(session(false), PURCHASE_8_17_0, t, reading, { evidence: async () => {} });
    await submitFinalPanel(session(true), PURCHASE_8_17_0, guard, ledger, {
      target: t,
      submissionId: `s-${t.authorizationId}`,
      expected: reading as FinalPanelReading,
      workflowId: 'wf',
    });
    return { stop: null, dumps, steps };
  } catch (err) {
    if (!isDeviceError(err)) throw err;
    return { stop: err.code, dumps, steps };
  }
}

const REFUSED = 'ERROR: could not get idle state.';
const taps = () => sim.phone(SERIAL).taps.map((x) => `${x.target?.text ?? ''}${x.node?.text ?? ''}`);

const onChannel = (channel: typeof TEST_CHANNEL) => (TEST_CHANNEL === channel ? describe : describe.skip);

onChannel('dump')('a screen that never goes idle, read by uiautomator dump', () => {
  it('the goods page: stops with HIERARCHY_UNAVAILABLE at its first refused dump, nothing tapped', async () => {
    sim.phone(SERIAL).setFaults({ never_idle: ['goods_detail'] });
    const r = await livePurchase(purchaseTarget(GOODS));
    expect(r.stop).toBe('HIERARCHY_UNAVAILABLE');
    // the loading screen after `am start` dumps; the goods page is refused once, never asked again
    expect(r.dumps).toEqual(['xml', REFUSED]);
    expect(r.steps.entries.filter((e) => e.step === 'never_idle')).toHaveLength(1);
    expect(sim.phone(SERIAL).taps).toEqual([]);
    expect(sim.phone(SERIAL).app.orders).toEqual([]);
  });

  it('the spec panel: the entry tap is the only tap, no option and no 提交订单 after the refusal', async () => {
    sim.phone(SERIAL).setFaults({ never_idle: ['sku_panel'] });
    const r = await livePurchase(purchaseTarget(GOODS));
    expect(r.stop).toBe('HIERARCHY_UNAVAILABLE');
    expect(r.dumps.filter((d) => d === REFUSED)).toHaveLength(1);
    expect(r.dumps.at(-1)).toBe(REFUSED);
    expect(taps()).toHaveLength(1);
    expect(taps()[0]).toMatch(/^快要抢光/);
    expect(taps().filter((t) => t.startsWith('提交订单'))).toEqual([]);
    expect(sim.phone(SERIAL).app.orders).toEqual([]);
  });

  it('the same purchase on screens that go idle reaches its one submit tap', async () => {
    sim.phone(SERIAL).setFaults({ never_idle: ['orders_list'] });
    const r = await livePurchase(purchaseTarget(GOODS));
    expect(r.stop).toBeNull();
    expect(r.dumps.every((d) => d === 'xml')).toBe(true);
    expect(taps().filter((t) => t.startsWith('提交订单'))).toHaveLength(1);
  });

  it('collect stops the same way, at the first refused dump', async () => {
    sim.phone(SERIAL).setFaults({ never_idle: ['goods_detail'] });
    const { adb, dumps } = countedAdb();
    const session = new PddSession(adb, profileForVersion('8.17.0'), new CounterClock(), new StepLog(), FAST_TIMING);
    await expect(collectGoods(session, GOODS)).rejects.toMatchObject({ code: 'HIERARCHY_UNAVAILABLE' });
    expect(dumps).toEqual(['xml', REFUSED]);
    expect(sim.phone(SERIAL).taps).toEqual([]);
  });
});

/** The agent reads the tree as it is, never waiting for idle: the same purchase completes. */
onChannel('agent')('a screen that never goes idle, read through the on-device agent', () => {
  it('the goods page and the spec panel: the purchase passes its gates and taps 提交订单 once', async () => {
    sim.phone(SERIAL).setFaults({ never_idle: ['goods_detail', 'sku_panel'] });
    const r = await livePurchase(purchaseTarget(GOODS));
    expect(r.stop).toBeNull();
    expect(r.dumps.every((d) => d === 'xml')).toBe(true);
    expect(r.steps.entries.filter((e) => e.step === 'never_idle')).toEqual([]);
    expect(taps().filter((t) => t.startsWith('提交订单'))).toHaveLength(1);
    expect(sim.phone(SERIAL).app.orders).toHaveLength(1);
  });

  it('collect reads a never-idle goods page through it', async () => {
    sim.phone(SERIAL).setFaults({ never_idle: true });
    const { adb, dumps } = countedAdb();
    const session = new PddSession(adb, profileForVersion('8.17.0'), new CounterClock(), new StepLog(), FAST_TIMING);
    const goods = await collectGoods(session, GOODS);
    expect(goods.goods_id).toBe(GOODS);
    expect(goods.skus.length).toBeGreaterThan(0);
    expect(dumps.every((d) => d === 'xml')).toBe(true);
  });
});
