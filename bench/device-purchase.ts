import type { FinalPanelReading } from '../domain/contracts/device-activities';
import { PDD_PACKAGE } from '../domain/pdd-app';
import { AdbDevice } from '../device-worker/adb/adb-device';
import type { PhoneAgent } from '../device-worker/agent/phone-agent';
import { CounterClock, type DeviceCounters } from '../device-worker/counters';
import type { SubmissionLedger } from '../device-worker/ledger/submissions';
import { profileForVersion } from '../device-worker/pdd/profile';
import { EvidenceCamera } from '../device-worker/pdd/purchase/camera';
import { TapGuard } from '../device-worker/pdd/purchase/guard';
import { prepareFinalPanel } from '../device-worker/pdd/purchase/prepare';
import { PURCHASE_8_17_0 } from '../device-worker/pdd/purchase/profile';
import { PurchaseSession } from '../device-worker/pdd/purchase/purchase-session';
import { observeAfterTap, submitFinalPanel } from '../device-worker/pdd/purchase/submit';
import { StepLog } from '../device-worker/step-log';
import type { PhoneSim } from '../sim/phone';

/**
 * One live purchase on the simulated phone as the device activities run it, for the device part
 * (bench/device.ts, bench/device-agent.ts): the phone reset before it, its reads timed per channel.
 */
export interface Purchase {
  goodsId: string;
  options: Record<string, string>;
  quantity: number;
}

export const PURCHASES: Purchase[] = [
  { goodsId: '937122477375', options: { 颜色分类: '黑色', 尺码: 'M' }, quantity: 1 },
  { goodsId: '937122477375', options: { 颜色分类: '黑色', 尺码: 'M' }, quantity: 2 },
  { goodsId: '600000000101', options: { 颜色: '红', 尺码: 'S' }, quantity: 3 },
];

/** One hierarchy read of a purchase: how long `dumpUi()` took and the channel that answered it. */
export interface HierarchyRead {
  ms: number;
  channel: 'agent' | 'dump';
}

/** The phone for one purchase: reset, its agent (if any) running again, its clock started after that. */
export interface FreshPhone {
  adb: AdbDevice;
  clock: CounterClock;
  /** every `dumpUi()` of the purchase, timed */
  reads: HierarchyRead[];
}

/**
 * Resets the phone (which kills and removes its agent), sets `faults`, brings `agent` up again
 * and only then starts the clock: the purchase is timed as a worker whose agent already runs.
 * Without `agent` every read is a `uiautomator dump`.
 */
export async function freshPhone(
  sim: PhoneSim,
  serial: string,
  on: { agent?: PhoneAgent; faults?: unknown } = {},
): Promise<FreshPhone> {
  const phone = sim.phone(serial);
  phone.reset();
  if (on.faults) phone.setFaults(on.faults);
  if (on.agent) {
    await on.agent.keep();
    if (!on.agent.ready()) throw new Error(`the agent did not start: ${JSON.stringify(on.agent.report())}`);
  }
  const clock = new CounterClock();
  const adb = new AdbDevice({ host: '127.0.0.1', port: sim.adbPort, serial }, {}, () => clock.roundTrip());
  adb.readHierarchyFrom(on.agent ?? null);
  const reads: HierarchyRead[] = [];
  const read = adb.dumpUi.bind(adb);
  adb.dumpUi = async () => {
    const t = performance.now();
    const out = await read();
    // after the read: an agent read that failed has already handed the channel back to dump
    reads.push({ ms: performance.now() - t, channel: adb.hierarchyChannel });
    return out;
  };
  return { adb, clock, reads };
}

/** One live purchase on the phone as the three device activities run it, timed to the observed order. */
export async function livePurchase({ adb, clock }: FreshPhone, ledger: SubmissionLedger, c: Purchase, id: string) {
  const authorizationId = `bench-${id}`;
  const profile = profileForVersion(await adb.versionName(PDD_PACKAGE));
  const guard = new TapGuard({
    authorizationId,
    irreversible: (a) => ledger.irreversible(a),
    pkg: profile.pkg,
    submitLabel: PURCHASE_8_17_0.text.submitLabel,
    readOnlyUrl: PURCHASE_8_17_0.pendingOrdersUrl,
  });
  const session = new PurchaseSession(guard.wrap(adb), profile, clock, new StepLog());
  session.setPurchaseProfile(PURCHASE_8_17_0);
  // evidence as the activities take it, each activity its own camera settled before it returns
  const camera = () =>
    new EvidenceCamera(session, {
      screencap: () => adb.screencap(),
      keep: async () => undefined,
      skip: () => undefined,
      now: () => new Date().toISOString(),
    });
  const target = {
    taskId: 'bench',
    attemptId: `attempt-${id}`,
    authorizationId,
    goodsId: c.goodsId,
    goodsUrl: `https://mobile.yangkeduo.com/goods.html?goods_id=${c.goodsId}`,
    options: c.options,
    quantity: c.quantity,
    maxTotalPriceCent: 1_000_000,
    mode: 'live' as const,
  };
  const reading: Partial<FinalPanelReading> = {};
  const before = camera();
  await prepareFinalPanel(session, PURCHASE_8_17_0, target, reading, {
    evidence: (k) => before.take(k),
    preview: () => before.preview(),
  });
  await before.settle();
  session.setWitness(null);
  const prepared = clock.snapshot();

  const expected = reading as FinalPanelReading;
  const { tappedAt } = await submitFinalPanel(session, PURCHASE_8_17_0, guard, ledger, {
    target,
    submissionId: `s-${id}`,
    expected,
    workflowId: `bench/${id}`,
  });
  const after = camera();
  let ordered: DeviceCounters | null = null;
  const observed = await observeAfterTap(session, PURCHASE_8_17_0, { target, expected, tappedAt }, async (k) => {
    // ORDER_LIST is asked for right after the orders list was read: the order is observed
    if (k === 'ORDER_LIST') ordered = clock.snapshot();
    await after.take(k);
  });
  await after.settle();
  session.setWitness(null);
  return { prepared, ordered: ordered as DeviceCounters | null, all: clock.snapshot(), observed };
}
