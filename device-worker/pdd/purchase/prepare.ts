import type { FinalPanelReading, PurchaseTarget } from '../../../domain/contracts/device-activities';
import { readFinal, readGate1, readGate2, stepToQuantity } from './panel-gates';
import type { PurchaseProfile } from './profile';
import type { PurchaseSession } from './purchase-session';
import { readBack } from './read-back';
import { openAndSelect } from './select-options';

/** SAFETY_STOP: the phone's screen where a purchase stopped before the fence. */
export type EvidenceKind = 'SKU_PANEL_GATE_1' | 'SUBMIT_PANEL_GATE_3' | 'ORDER_RESULT' | 'ORDER_LIST' | 'SAFETY_STOP';

export interface PrepareHooks {
  /** a screenshot of what the phone shows now; failures are the hook's own business */
  evidence(kind: EvidenceKind): Promise<void>;
  /** a screenshot now, named by a later `evidence` once the next dump has shown the screen unchanged */
  preview?(): Promise<void>;
}

/**
 * Open, select, Gate 1, quantity, Gate 2, Gate 3 on one phone, stopping on the final panel with
 * nothing irreversible tapped. `reading` fills in as the flow goes, so a stop reports what was
 * read up to there. A page that is not what the task authorised and a phone that failed both
 * throw a DeviceError; its code (domain/purchase/failures.ts) says which it is.
 */
export async function prepareFinalPanel(
  session: PurchaseSession,
  pp: PurchaseProfile,
  target: PurchaseTarget,
  reading: Partial<FinalPanelReading>,
  hooks: PrepareHooks,
): Promise<FinalPanelReading> {
  try {
    return await prepareOnce(session, pp, target, reading, hooks);
  } catch (err) {
    // a network error page at any step before the fence: the goods link is opened again, by
    // intent, once — the whole way to the final panel is walked again from there
    if (!session.mayReopen(err)) throw err;
    session.finalPanelInterruptions(false);
    session.steps.add('reopen_goods', { goods_id: target.goodsId, after: 'NETWORK_ERROR' });
    return prepareOnce(session, pp, target, reading, hooks);
  }
}

/** Steps 3–6 of docs/architecture.md §4.2, in that order; each step's rules live in the file named beside it. */
async function prepareOnce(
  session: PurchaseSession,
  pp: PurchaseProfile,
  target: PurchaseTarget,
  reading: Partial<FinalPanelReading>,
  hooks: PrepareHooks,
): Promise<FinalPanelReading> {
  // steps 3–4: the goods, the panel, every option selected and read back (./select-options.ts)
  const { panel, names, values } = await openAndSelect(session, target, reading);
  // step 4's Gate 1 at count 1, step 5's quantity and Gate 2 (./panel-gates.ts)
  readGate1(panel, target, reading);
  await hooks.evidence('SKU_PANEL_GATE_1');
  await stepToQuantity(session, panel, target);
  readGate2(panel, values, target, reading);
  // the quantity is set: this is the final panel, where a popup is the purchase's stop, never closed
  session.finalPanelInterruptions(true);

  // step 6: Gate 3 on a fresh read of the same panel, before anything else happens on it. A picture
  // taken just before it costs no dump of its own: this read is its check (./camera.ts).
  await hooks.preview?.();
  const fin = await readBack(() => session.rereadPanel(panel), 'the final panel');
  const g3 = readFinal(session, pp, fin, names, values, target, reading.gate2PanelTotalCent as number);
  reading.gate3SubmitAmountCent = g3;
  await hooks.evidence('SUBMIT_PANEL_GATE_3');
  return reading as FinalPanelReading;
}

/**
 * A dry run ends off the final panel: one back (the safe exit, never a tap on the panel), proven by
 * the goods page coming back, before the phone is released. A popup in the way is still not closed
 * (it stops, as on the final panel itself).
 */
export async function leaveFinalPanel(session: PurchaseSession): Promise<void> {
  await session.back(true);
  session.finalPanelInterruptions(false);
}
