import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FinalPanelReading } from '../domain/contracts/device-activities';
import { AdbDevice } from '../device-worker/adb/adb-device';
import { CounterClock, type DeviceCounters } from '../device-worker/counters';
import { SubmissionLedger } from '../device-worker/ledger/submissions';
import { collectGoods } from '../device-worker/pdd/collect';
import { profileForVersion } from '../device-worker/pdd/profile';
import { TapGuard } from '../device-worker/pdd/purchase/guard';
import { prepareFinalPanel } from '../device-worker/pdd/purchase/prepare';
import { PURCHASE_8_17_0 } from '../device-worker/pdd/purchase/profile';
import { PurchaseSession } from '../device-worker/pdd/purchase/purchase-session';
import { observeAfterTap, submitFinalPanel } from '../device-worker/pdd/purchase/submit';
import { PddSession } from '../device-worker/pdd/session';
import { StepLog } from '../device-worker/step-log';
import { defaultCatalog, startPhoneSim, type LatencyProfile, type PhoneSim } from '../sim/phone';
import { PDD_PACKAGE } from '../domain/pdd-app';

/** One live purchase on the phone as the three device activities run it, timed to the observed order. */
async function livePurchase(
  sim: PhoneSim,
  serial: string,
  ledger: SubmissionLedger,
  c: { goodsId: string; options: Record<string, string>; quantity: number },
  n: number,
) {
  sim.phone(serial).reset();
  const authorizationId = `bench-${n}`;
  const clock = new CounterClock();
  const adb = new AdbDevice({ host: '127.0.0.1', port: sim.adbPort, serial }, {}, () => clock.roundTrip());
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
  const camera = () => ({ take: async (_k: string) => void (await adb.screencap()), preview: async () => {}, settle: async () => {} });
  const target = {
    taskId: 'bench',
    attemptId: `attempt-${n}`,
    authorizationId,
    goodsId: c.goodsId,
    goodsUrl: `https://mobile.yangkeduo.com/goods.html?goods_id=${c.goodsId}`,
    options: c.options,
    quantity: c.quantity,
    capCent: 1_000_000,
    mode: 'live' as const,
  };
  const reading: Partial<FinalPanelReading> = {};
  const before = camera();
  await prepareFinalPanel(session, PURCHASE_8_17_0, target, reading, {
    evidence: (k) => before.take(k),
  });
  await before.settle();
  const prepared = clock.snapshot();

  const expected = reading as FinalPanelReading;
  const { tappedAt } = await submitFinalPanel(session, PURCHASE_8_17_0, guard, ledger, {
    target,
    submissionId: `s-${n}`,
    expected,
    workflowId: `bench/${n}`,
  });
  const after = camera();
  let ordered: DeviceCounters | null = null;
  const observed = await observeAfterTap(session, PURCHASE_8_17_0, { target, expected, tappedAt }, async (k) => {
    // ORDER_LIST is asked for right after the orders list was read: the order is observed
    if (k === 'ORDER_LIST') ordered = clock.snapshot();
    await after.take(k);
  });
  await after.settle();
  return { prepared, ordered: ordered as DeviceCounters | null, all: clock.snapshot(), observed };
}


const PURCHASES = [{ goodsId: '937122477375', options: { 颜色分类: '黑色', 尺码: 'M' }, quantity: 1 }];
async function main() {
  const serial = 'bench-phone';
  const sim = await startPhoneSim({ adbPort: 0, controlPort: 0, phones: [serial], latency: 'realistic' });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-base-'));
  const ledger = new SubmissionLedger(path.join(dir, 'ledger.db'));
  const runs = Number(process.argv[2] ?? 3);
  for (let i = 0; i < runs; i++) {
    const r = await livePurchase(sim, serial, ledger, PURCHASES[0]!, i + 1);
    console.log(JSON.stringify({ dry_s: r.prepared.wall_ms / 1000, dry_dumps: r.prepared.dumps, live_s: (r.ordered as any)?.wall_ms / 1000, live_dumps: (r.ordered as any)?.dumps, all_s: r.all.wall_ms / 1000, all_dumps: r.all.dumps }));
  }
  ledger.close();
  await sim.close();
}
void main();
