import type { PhoneSim } from '../../../sim/phone';
import type { FinalPanelReading, PurchaseTarget } from '../../../domain/contracts/device-activities';
import { isDeviceError } from '../../errors';
import type { SubmissionLedger } from '../../ledger/submissions';
import { leaveFinalPanel, prepareFinalPanel } from './prepare';
import { PURCHASE_8_17_0 } from './profile';
import { purchaseTarget, purchasePhone, usePurchaseRig } from './testkit';

/**
 * The final panel takes no tap but the one submit and the safe exit: a popup that comes up over it
 * stops the purchase untouched, and a dry run leaves it by one back before the phone is released.
 */
const SERIAL = 'final-panel-phone';
const GOODS = '937122477375';

let sim: PhoneSim;
let ledger: SubmissionLedger;
usePurchaseRig(SERIAL, (rig) => ({ sim, ledger } = rig));

function phone(t: PurchaseTarget) {
  const { session, steps } = purchasePhone({ sim, ledger }, SERIAL, t);
  return { session: session(), steps };
}

async function prepare(t: PurchaseTarget) {
  const p = phone(t);
  const reading: Partial<FinalPanelReading> = {};
  const result = await prepareFinalPanel(p.session, PURCHASE_8_17_0, t, reading, { evidence: async () => {} }).catch(
    (e: unknown) => e,
  );
  return { ...p, result };
}

const taps = () => sim.phone(SERIAL).taps;
const overlayTaps = () => taps().filter((x) => x.overlay !== null);
const isSubmit = (m: { text?: string } | null | undefined) => (m?.text ?? '').startsWith('提交订单');
const submitTaps = () => taps().filter((x) => isSubmit(x.target) || isSubmit(x.node));
const top = () => sim.phone(SERIAL).app.top().kind;

async function setOverlays(overlays: object[]): Promise<void> {
  const res = await fetch(`http://127.0.0.1:${sim.controlPort}/devices/${SERIAL}/overlays`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ overlays }),
  });
  if (res.status !== 200) throw new Error(`PUT overlays: ${res.status} ${await res.text()}`);
}

describe('a popup over the final panel', () => {
  it.each(['notification_prompt', 'red_packet', 'update_prompt'])(
    '%s on the final panel’s own read: the purchase stops, no tap on the popup, none on 提交订单',
    async (template) => {
      // the popup comes up at the n-th dump of the complete panel; some n is the final panel's own read
      for (const afterDumps of [0, 1, 2, 3, 4]) {
        sim.phone(SERIAL).reset();
        await setOverlays([{ template, when: 'final_panel', after_dumps: afterDumps }]);
        const { result, steps } = await prepare(purchaseTarget(GOODS, { quantity: 2 }));
        const reread = steps.entries.findIndex((e) => e.step === 'reread_panel');
        const closedAt = steps.entries.findIndex((e) => e.step === 'dismiss_interstitial');
        // before the quantity was set it is an ordinary interstitial: closed, and the purchase went on
        if (closedAt >= 0 && (reread < 0 || closedAt < reread)) continue;
        expect({ afterDumps, reached: reread >= 0 }).toEqual({ afterDumps, reached: true });
        // on the final panel: stopped, never closed, nothing tapped on the popup or on 提交订单
        expect(isDeviceError(result) && result.message).toContain('instead of the final panel');
        expect(closedAt).toBe(-1);
        expect(overlayTaps()).toHaveLength(0);
        expect(submitTaps()).toHaveLength(0);
        expect(sim.phone(SERIAL).app.orders).toHaveLength(0);
        return;
      }
      throw new Error('the popup never came up on the final panel’s own read');
    },
  );

  it('before the quantity is set a profiled popup is still closed (the final panel is not up yet)', async () => {
    await setOverlays([{ template: 'red_packet', when: 'panel' }]);
    const { result, steps } = await prepare(purchaseTarget(GOODS));
    expect(isDeviceError(result)).toBe(false);
    expect(steps.entries.filter((e) => e.step === 'dismiss_interstitial')).toHaveLength(1);
  });
});

describe('a dry run leaves the final panel by the safe exit', () => {
  it('one back: the goods page is up, no tap on 提交订单, no tap at all after the final read', async () => {
    const t = purchaseTarget(GOODS, { mode: 'dry_run' });
    const { session, result } = await prepare(t);
    expect(isDeviceError(result)).toBe(false);
    expect(top()).toBe('panel');
    const before = taps().length;
    await leaveFinalPanel(session);
    expect(top()).toBe('goods');
    expect(taps()).toHaveLength(before);
    expect(submitTaps()).toHaveLength(0);
    expect(sim.phone(SERIAL).app.orders).toHaveLength(0);
  });
});
