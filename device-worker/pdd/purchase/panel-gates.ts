import type { FinalPanelReading, PurchaseTarget } from '../../../domain/contracts/device-activities';
import { gate1, gate2, gate3 } from '../../../domain/purchase/gates';
import { DeviceError } from '../../errors';
import type { PanelState } from '../panel-state';
import { readPanelPrice } from '../price';
import type { OpenPanel } from '../session';
import { readStepper, readSubmitControl } from './final-panel';
import type { PurchaseProfile } from './profile';
import type { PurchaseSession } from './purchase-session';
import { readBack, requireSelection } from './read-back';

/*
 * The three price gates as the phone shows them (the rules themselves: domain/purchase/gates.ts),
 * and the quantity steps between Gate 1 and Gate 2. Each reads the panel the last proof left,
 * fills in `reading` as it goes (a stop reports what was read up to there) and throws the gate's
 * DeviceError when it does not pass.
 */

/** Gate 1: the unit price at count 1, read from the panel's top price only. */
export function readGate1(panel: OpenPanel, target: PurchaseTarget, reading: Partial<FinalPanelReading>): void {
  const count1 = panel.state.view.count;
  if (count1 !== '1')
    throw new DeviceError(
      'QUANTITY_READBACK_MISMATCH',
      `the fresh panel's quantity reads ${JSON.stringify(count1)}, not 1`,
      {},
      { kind: 'fresh_quantity_not_one', shown: count1 },
    );
  const unit = readPanelPrice(panel.state.view.priceText);
  reading.gate1RawPrice = panel.state.view.priceText;
  reading.gate1UnitPriceCent = unit.kind === 'single' ? unit.cent : null;
  const g1 = gate1({
    unitPriceCent: reading.gate1UnitPriceCent,
    quantity: target.quantity,
    maxTotalPriceCent: target.maxTotalPriceCent,
  });
  if (!g1.pass)
    throw new DeviceError(g1.reason, `Gate 1: ${g1.detail} (read ${JSON.stringify(unit.raw)})`, {}, g1.facts);
}

/** Quantity with + and read back after every step. */
export async function stepToQuantity(
  session: PurchaseSession,
  panel: OpenPanel,
  target: PurchaseTarget,
): Promise<void> {
  for (let n = 1; n < target.quantity; n++) {
    const st = await readBack(() => session.stepQuantity(panel, 'plus'), 'quantity +');
    if (st === 'missing')
      throw new DeviceError(
        'PAGE_UNRECOGNIZED',
        'the quantity row is not in view',
        {},
        { kind: 'quantity_row_missing' },
      );
    if (st === 'disabled')
      throw new DeviceError(
        'QUANTITY_OVER_STOCK',
        `"+" is disabled at ${n}; ${target.quantity} cannot be set`,
        {},
        { kind: 'plus_disabled', at: n, wanted: target.quantity },
      );
    if (st.view.count !== String(n + 1))
      throw new DeviceError(
        'QUANTITY_READBACK_MISMATCH',
        `after ${n} "+" the quantity reads ${JSON.stringify(st.view.count)}, not ${n + 1}`,
        {},
        { kind: 'quantity_after_plus', plus_taps: n, shown: st.view.count, wanted: n + 1 },
      );
  }
}

/**
 * Gate 2: the panel total as READ at the target quantity (multi-piece prices are not linear).
 * It reads the panel as the last input left it: the last "+"'s read-back, or at quantity 1 the
 * dump that proved the selection and Gate 1 — the same proof a re-read would give; the fresh
 * read is Gate 3's.
 */
export function readGate2(
  panel: OpenPanel,
  values: readonly string[],
  target: PurchaseTarget,
  reading: Partial<FinalPanelReading>,
): void {
  requireSelection(panel.state, panel.names, values);
  const qty = Number(panel.state.view.count);
  reading.quantityRead = Number.isSafeInteger(qty) ? qty : null;
  if (reading.quantityRead !== target.quantity)
    throw new DeviceError(
      'QUANTITY_READBACK_MISMATCH',
      `the quantity reads ${JSON.stringify(panel.state.view.count)}, wanted ${target.quantity}`,
      {},
      { kind: 'quantity_shown', shown: panel.state.view.count, wanted: target.quantity },
    );
  const total = readPanelPrice(panel.state.view.priceText);
  reading.gate2PanelTotalCent = total.kind === 'single' ? total.cent : null;
  if (
    target.quantity === 1 &&
    reading.gate2PanelTotalCent !== null &&
    reading.gate2PanelTotalCent !== reading.gate1UnitPriceCent
  ) {
    throw new DeviceError(
      'PRICE_CHANGED',
      `at quantity 1 the panel now reads ${total.raw}; Gate 1 read ${reading.gate1RawPrice}`,
      {},
      { kind: 'price_moved_at_one', now: total.raw, gate1_read: reading.gate1RawPrice ?? null },
    );
  }
  const g2 = gate2({ panelTotalCent: reading.gate2PanelTotalCent, maxTotalPriceCent: target.maxTotalPriceCent });
  if (!g2.pass)
    throw new DeviceError(g2.reason, `Gate 2: ${g2.detail} (read ${JSON.stringify(total.raw)})`, {}, g2.facts);
}

/**
 * Gate 3 and the final re-check on one dump of the final panel:
 * options and quantity unchanged, top total still Gate 2, the unique enabled `提交订单 ¥X` with
 * X == Gate 2 ≤ cap. Used by prepare and, read-only, by submitOnce right before its tap.
 */
export function readFinal(
  session: PurchaseSession,
  pp: PurchaseProfile,
  st: PanelState,
  names: readonly string[],
  values: readonly string[],
  target: PurchaseTarget,
  gate2Cent: number,
): number {
  requireSelection(st, names, values);
  if (st.view.count !== String(target.quantity))
    throw new DeviceError(
      'QUANTITY_READBACK_MISMATCH',
      `the final panel's quantity reads ${JSON.stringify(st.view.count)}, wanted ${target.quantity}`,
      {},
      { kind: 'quantity_shown', shown: st.view.count, wanted: target.quantity },
    );
  const dump = session.lastDump();
  // the control first: a second 提交订单 is that stop, whatever else it covers
  const control = readSubmitControl(dump, session.profile, pp);
  if (readStepper(dump, session.profile, pp, 'plus') === null)
    throw new DeviceError(
      'QUANTITY_READBACK_MISMATCH',
      'the quantity row is not in view on the final panel',
      {},
      { kind: 'quantity_row_missing' },
    );
  const top = readPanelPrice(st.view.priceText);
  if (top.kind !== 'single' || top.cent !== gate2Cent)
    throw new DeviceError(
      'PRICE_CHANGED',
      `the panel total now reads ${JSON.stringify(top.raw)}; Gate 2 read ${gate2Cent} cents`,
      {},
      { kind: 'panel_total_moved', now: top.raw, gate2_panel_total_cent: gate2Cent },
    );
  const g3 = gate3({
    submitAmountCent: control.amountCent,
    gate2PanelTotalCent: gate2Cent,
    maxTotalPriceCent: target.maxTotalPriceCent,
  });
  if (!g3.pass) throw new DeviceError(g3.reason, `Gate 3: ${g3.detail} (${control.raw})`, {}, g3.facts);
  return control.amountCent;
}
