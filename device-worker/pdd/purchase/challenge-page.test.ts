import type { PhoneSim } from '../../../sim/phone';
import type { FinalPanelReading, PurchaseTarget } from '../../../domain/contracts/device-activities';
import type { SubmissionLedger } from '../../ledger/submissions';
import { memoryDumpMemory, type DumpMemory } from '../session/dumps';
import { prepareFinalPanel } from './prepare';
import { PURCHASE_8_17_0 } from './profile';
import { purchaseTarget, purchasePhone, usePurchaseRig } from './testkit';

/**
 * A page only a person clears (logged out, a captcha, a risk check) is that page on every read:
 * when the phone still shows it to the next purchase, the tree is the same as the last read — a
 * "stale" tree everywhere else — and the purchase still stops with the page's own reason at once,
 * never after a round of re-reads as a phone error.
 */
const SERIAL = 'challenge-phone';
const GOODS = '937122477375';

let sim: PhoneSim;
let ledger: SubmissionLedger;
usePurchaseRig(SERIAL, (rig) => ({ sim, ledger } = rig));

async function prepare(t: PurchaseTarget, memory: DumpMemory): Promise<{ code: unknown; reads: number }> {
  const { session, steps } = purchasePhone({ sim, ledger }, SERIAL, t, { memory });
  const reading: Partial<FinalPanelReading> = {};
  const err = await prepareFinalPanel(session(), PURCHASE_8_17_0, t, reading, { evidence: async () => {} }).then(
    () => null,
    (e: unknown) => e,
  );
  return {
    code: (err as { code?: unknown } | null)?.code ?? null,
    reads: steps.entries.filter((e) => e.step === 'stale_dump').length,
  };
}

describe.each([
  ['login', 'LOGIN_REQUIRED'],
  ['risk_slider', 'CAPTCHA_REQUIRED'],
  ['risk_sms', 'RISK_SMS'],
] as const)('the phone still shows the %s page to the next purchase', (page, code) => {
  it(`stops it with ${code} at its first read, taps nothing`, async () => {
    // no loading screen between the two reads, as on a phone that already shows the page
    sim.phone(SERIAL).setFaults({ page_on: { open: page }, loading_dumps: 0 });
    const memory = memoryDumpMemory();
    expect((await prepare(purchaseTarget(GOODS), memory)).code).toBe(code);
    // a person pressed 恢复 before solving it: the same page, the same tree
    const again = await prepare(purchaseTarget(GOODS), memory);
    expect(again).toEqual({ code, reads: 0 });
    expect(sim.phone(SERIAL).taps).toEqual([]);
    expect(sim.phone(SERIAL).app.orders).toEqual([]);
  });
});
