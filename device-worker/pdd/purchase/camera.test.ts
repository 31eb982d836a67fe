import type { PhoneSim } from '../../../sim/phone';
import type { FinalPanelReading, PurchaseTarget } from '../../../domain/contracts/device-activities';
import { isDeviceError } from '../../errors';
import { SubmissionLedger } from '../../ledger/submissions';
import { memoryDumpMemory } from '../session/dumps';
import { EvidenceCamera } from './camera';
import { prepareFinalPanel, type EvidenceKind } from './prepare';
import { PURCHASE_8_17_0 } from './profile';
import { observeAfterTap, submitFinalPanel } from './submit';
import { purchaseTarget, purchasePhone, usePurchaseRig } from './testkit';

/**
 * Evidence is checked against a dump on both sides of the picture: the simulator changes the
 * screen between the dump that allowed the picture and the screenshot (an overlay comes up over
 * the panel, the cashier or a payment app replaces the orders list), and that picture is never
 * kept; with nothing changed, every kind is kept, the flow's own next dump doing the check.
 */
const SERIAL = 'camera-phone';
const GOODS = '937122477375';

let sim: PhoneSim;
let ledger: SubmissionLedger;
usePurchaseRig(SERIAL, (rig) => {
  sim = rig.sim;
  ledger = rig.ledger;
});

const target = (quantity: number): PurchaseTarget => purchaseTarget(GOODS, { quantity });

const app = () => sim.phone(SERIAL).app;

/** What the phone showed at each screenshot, and what the camera kept and skipped. */
function rig(t: PurchaseTarget, change: (shot: number) => void = () => {}) {
  const phone = purchasePhone({ sim, ledger }, SERIAL, t, { memory: memoryDumpMemory() });
  const { guard, adb } = phone;
  const shots: Array<{ png: Buffer; screen: string; overlays: string[] }> = [];
  const kept: Array<{ kind: EvidenceKind; shot: (typeof shots)[number] }> = [];
  const skipped: Array<{ kind: EvidenceKind; why: string }> = [];
  const open = (readOnly: boolean) => {
    const session = phone.session(readOnly);
    const camera = new EvidenceCamera(session, {
      async screencap() {
        // the simulator may change the screen after the dump that allowed the picture
        change(shots.length);
        const png = await adb.screencap();
        shots.push({ png, screen: sim.phone(SERIAL).app.screenName(), overlays: app().visibleOverlays() });
        return png;
      },
      async keep(png, kind) {
        kept.push({ kind, shot: shots.find((s) => s.png === png)! });
      },
      skip: (kind, why) => void skipped.push({ kind, why }),
      now: () => new Date().toISOString(),
    });
    return { session, camera };
  };
  return { guard, open, shots, kept, skipped };
}

async function prepare(r: ReturnType<typeof rig>, t: PurchaseTarget) {
  const { session, camera } = r.open(false);
  const reading: Partial<FinalPanelReading> = {};
  await prepareFinalPanel(session, PURCHASE_8_17_0, t, reading, {
    evidence: (k) => camera.take(k),
    preview: () => camera.preview(),
  });
  await camera.settle();
  return { reading: reading as FinalPanelReading, dumps: session.marks().dumps };
}

async function submitAndObserve(r: ReturnType<typeof rig>, t: PurchaseTarget, expected: FinalPanelReading) {
  const { session } = r.open(true);
  const { tappedAt } = await submitFinalPanel(session, PURCHASE_8_17_0, r.guard, ledger, {
    target: t,
    submissionId: `s-${t.authorizationId}`,
    expected,
    workflowId: 'wf',
  });
  const after = r.open(true);
  const seen = await observeAfterTap(after.session, PURCHASE_8_17_0, { target: t, expected, tappedAt }, (k) =>
    after.camera.take(k),
  );
  await after.camera.settle();
  return seen;
}

const kinds = (r: ReturnType<typeof rig>) => r.kept.map((k) => k.kind);

describe('nothing changes between the dump and the screenshot', () => {
  it('one piece: Gate 1 and Gate 3 are one picture checked by the Gate 3 read, the orders list by one more look; no cashier picture', async () => {
    const t = target(1);
    const r = rig(t);
    // the same prepare with no camera at all
    const bare = target(1);
    const { session: plain } = rig(bare).open(false);
    plain.setWitness(null);
    await prepareFinalPanel(plain, PURCHASE_8_17_0, bare, {}, { evidence: async () => {} });
    sim.phone(SERIAL).reset();
    const { reading, dumps } = await prepare(r, t);
    expect(kinds(r)).toEqual(['SKU_PANEL_GATE_1', 'SUBMIT_PANEL_GATE_3']);
    expect(r.shots).toHaveLength(1);
    // the check cost no dump of its own: as many as a prepare whose camera kept the same
    expect(dumps).toBe(plain.marks().dumps);
    const seen = await submitAndObserve(r, t, reading);
    expect(seen.outcome).toBe('pending_payment');
    expect(kinds(r)).toEqual(['SKU_PANEL_GATE_1', 'SUBMIT_PANEL_GATE_3', 'ORDER_LIST']);
    expect(r.kept.every((k) => k.shot.overlays.length === 0 && ['sku_panel', 'orders'].includes(k.shot.screen))).toBe(
      true,
    );
    // the cashier was never photographed
    expect(r.shots.map((s) => s.screen)).not.toContain('cashier');
    expect(r.skipped.map((s) => s.kind)).toEqual(['ORDER_RESULT']);
  });

  it('two pieces: Gate 1 is checked by the first "+" read-back (exactly one step further), Gate 3 by its own read; no dump of the camera\'s own', async () => {
    const bare = target(2);
    const { session: plain } = rig(bare).open(false);
    plain.setWitness(null);
    await prepareFinalPanel(plain, PURCHASE_8_17_0, bare, {}, { evidence: async () => {} });
    sim.phone(SERIAL).reset();
    const t = target(2);
    const r = rig(t);
    const { dumps } = await prepare(r, t);
    expect(kinds(r)).toEqual(['SKU_PANEL_GATE_1', 'SUBMIT_PANEL_GATE_3']);
    expect(r.skipped).toEqual([]);
    expect(dumps).toBe(plain.marks().dumps);
  });
});

describe('the screen changes between the dump and the screenshot', () => {
  it('an interstitial comes up over the final panel: that picture is refused, and the purchase stops there without a tap on it', async () => {
    const t = target(1);
    const r = rig(t, (shot) => {
      if (shot !== 0) return;
      app().overlays.set([{ template: 'red_packet', when: 'final_panel', after_dumps: 0, times: 1 }]);
      app().world.strike();
    });
    // the final panel takes no tap but the safe exit and the one submit: the popup is the stop
    await expect(prepare(r, t)).rejects.toMatchObject({ message: expect.stringMatching(/interstitial red_packet/) });
    expect(r.shots[0]?.overlays).toEqual(['red_packet']);
    expect(r.kept.every((k) => k.shot.overlays.length === 0)).toBe(true);
    expect(sim.phone(SERIAL).taps.filter((x) => x.overlay !== null)).toEqual([]);
    expect(sim.phone(SERIAL).app.orders).toHaveLength(0);
  });

  it('two pieces, an interstitial before the "+": Gate 1 refused by the step\'s read-back, and the purchase stops or goes on, never past a wrong reading', async () => {
    const t = target(2);
    const r = rig(t, (shot) => {
      if (shot !== 0) return;
      app().overlays.set([{ template: 'red_packet', when: 'final_panel', after_dumps: 0, times: 1 }]);
      app().world.strike();
    });
    // the "+" was read from the dump before the dialog: where the dialog covers it, the tap is the
    // dialog's (as for any dialog that comes up between a dump and a tap) and the count is read back
    const outcome = await prepare(r, t).then(
      (p) => p.reading.quantityRead,
      (err: unknown) => (isDeviceError(err) ? err.code : err),
    );
    expect([2, 'QUANTITY_READBACK_MISMATCH']).toContain(outcome);
    expect(r.shots[0]?.overlays).toEqual(['red_packet']);
    expect(r.skipped.map((s) => s.kind)).toContain('SKU_PANEL_GATE_1');
    expect(kinds(r)).not.toContain('SKU_PANEL_GATE_1');
    expect(r.kept.every((k) => k.shot.overlays.length === 0)).toBe(true);
    const taps = sim.phone(SERIAL).taps;
    expect(taps.filter((x) => (x.overlay_action ?? '').startsWith('navigate'))).toEqual([]);
    expect(taps.filter((x) => (x.target?.text ?? '').startsWith('提交订单'))).toEqual([]);
    expect(sim.phone(SERIAL).app.orders).toHaveLength(0);
  });

  it.each([
    ['the cashier', { kind: 'cashier', orderNo: 'X1', totalCent: 1288 }, 'cashier'],
    ['a payment app', { kind: 'payment', orderNo: 'X1', totalCent: 1288 }, 'payment_handoff'],
  ])('%s replaces the orders list: the orders list picture is never kept', async (_name, page, screen) => {
    const t = target(1);
    let at = -1;
    const r = rig(t, (shot) => {
      if (shot !== at) return;
      app().navigate(() => app().stack.push(page as never));
    });
    const { reading } = await prepare(r, t);
    at = r.shots.length; // the next picture is the orders list's
    const seen = await submitAndObserve(r, t, reading);
    expect(seen.outcome).toBe('pending_payment');
    expect(r.shots.at(-1)?.screen).toBe(screen);
    expect(kinds(r)).not.toContain('ORDER_LIST');
    expect(r.skipped.map((s) => s.kind)).toContain('ORDER_LIST');
    expect(r.kept.every((k) => !['cashier', 'payment_handoff'].includes(k.shot.screen))).toBe(true);
    expect(sim.phone(SERIAL).taps.filter((x) => /支付|付款/.test(x.target?.text ?? ''))).toEqual([]);
  });
});
