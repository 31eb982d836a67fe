import type { Cent } from '../money';
import type { DeviceFailureCode } from './failures';
import type { ReasonCode } from './reasons';

/** Why a gate fails: each is both the phone's failure code and the operator's reason. */
type GateFailure = Extract<DeviceFailureCode, ReasonCode> &
  ('GATE1_OVER_CAP' | 'GATE2_OVER_CAP' | 'GATE3_MISMATCH' | 'PRICE_UNREADABLE' | 'QUANTITY_READBACK_MISMATCH');

/**
 * The three price gates. Pure, so the workflow, the device flow and the fence
 * transaction all judge the same readings the same way. Every gate compares integer cents read
 * from the screen; a null reading is unreadable and stops, never counts as 0.
 */
export type GateVerdict = { pass: true } | { pass: false; reason: GateFailure; detail: string };

const pass: GateVerdict = { pass: true };
const fail = (reason: GateFailure, detail: string): GateVerdict => ({ pass: false, reason, detail });

/** Gate 1, on the spec panel with the target options selected: unit × quantity ≤ cap. */
export function gate1(input: { unitPriceCent: Cent | null; quantity: number; capCent: Cent }): GateVerdict {
  if (input.unitPriceCent === null) return fail('PRICE_UNREADABLE', 'unit price unreadable');
  const total = input.unitPriceCent * input.quantity;
  if (total > input.capCent)
    return fail('GATE1_OVER_CAP', `${input.unitPriceCent} × ${input.quantity} = ${total} > cap ${input.capCent}`);
  return pass;
}

/**
 * Gate 2, after the quantity was set and read back: the panel total as READ (multi-piece
 * prices are not linear, so it is never computed from Gate 1) is ≤ cap.
 */
export function gate2(input: { panelTotalCent: Cent | null; capCent: Cent }): GateVerdict {
  if (input.panelTotalCent === null) return fail('PRICE_UNREADABLE', 'panel total unreadable');
  if (input.panelTotalCent > input.capCent)
    return fail('GATE2_OVER_CAP', `panel total ${input.panelTotalCent} > cap ${input.capCent}`);
  return pass;
}

/** Gate 3, on the same final panel: `提交订单 ¥X` with X exactly equal to Gate 2 and ≤ cap. */
export function gate3(input: { submitAmountCent: Cent | null; gate2PanelTotalCent: Cent; capCent: Cent }): GateVerdict {
  if (input.submitAmountCent === null) return fail('GATE3_MISMATCH', 'submit amount unreadable');
  if (input.submitAmountCent !== input.gate2PanelTotalCent) {
    return fail('GATE3_MISMATCH', `submit amount ${input.submitAmountCent} ≠ panel total ${input.gate2PanelTotalCent}`);
  }
  if (input.submitAmountCent > input.capCent)
    return fail('GATE3_MISMATCH', `submit amount ${input.submitAmountCent} > cap ${input.capCent}`);
  return pass;
}

export interface GateReadings {
  gate1UnitPriceCent: Cent | null;
  gate2PanelTotalCent: Cent | null;
  gate3SubmitAmountCent: Cent | null;
  quantityRead: number | null;
}

/** All three gates plus the quantity read-back, as the fence re-checks them in one place. */
export function allGates(readings: GateReadings, quantity: number, capCent: Cent): GateVerdict {
  const g1 = gate1({ unitPriceCent: readings.gate1UnitPriceCent, quantity, capCent });
  if (!g1.pass) return g1;
  if (readings.quantityRead !== quantity)
    return fail('QUANTITY_READBACK_MISMATCH', `read ${readings.quantityRead}, wanted ${quantity}`);
  const g2 = gate2({ panelTotalCent: readings.gate2PanelTotalCent, capCent });
  if (!g2.pass) return g2;
  return gate3({
    submitAmountCent: readings.gate3SubmitAmountCent,
    gate2PanelTotalCent: readings.gate2PanelTotalCent!,
    capCent,
  });
}
