import type { Cent } from '../money';
import type { DeviceFailureCode } from './failures';
import type { ReasonCode } from './reasons';
import type { StopFacts } from './stop-facts';

/** Why a gate fails: each is both the phone's failure code and the operator's reason. */
type GateFailure = Extract<DeviceFailureCode, ReasonCode> &
  ('GATE1_OVER_CAP' | 'GATE2_OVER_CAP' | 'GATE3_MISMATCH' | 'PRICE_UNREADABLE' | 'QUANTITY_READBACK_MISMATCH');

/**
 * The three price gates. Pure, so the workflow, the device flow and the fence
 * transaction all judge the same readings the same way. Every gate compares integer cents read
 * from the screen; a null reading is unreadable and stops, never counts as 0.
 */
export type GateVerdict = { pass: true } | { pass: false; reason: GateFailure; detail: string; facts: StopFacts };

const pass: GateVerdict = { pass: true };
const fail = (reason: GateFailure, detail: string, facts: StopFacts): GateVerdict => ({
  pass: false,
  reason,
  detail,
  facts,
});

/** Gate 1, on the spec panel with the target options selected: unit × quantity ≤ cap. */
export function gate1(input: { unitPriceCent: Cent | null; quantity: number; maxTotalPriceCent: Cent }): GateVerdict {
  if (input.unitPriceCent === null)
    return fail('PRICE_UNREADABLE', 'unit price unreadable', { kind: 'unreadable', reading: 'unit_price' });
  const total = input.unitPriceCent * input.quantity;
  if (total > input.maxTotalPriceCent)
    return fail(
      'GATE1_OVER_CAP',
      `${input.unitPriceCent} × ${input.quantity} = ${total} > cap ${input.maxTotalPriceCent}`,
      {
        kind: 'gate1_over_cap',
        unit_price_cent: input.unitPriceCent,
        quantity: input.quantity,
        total_cent: total,
        max_total_price_cent: input.maxTotalPriceCent,
      },
    );
  return pass;
}

/**
 * Gate 2, after the quantity was set and read back: the panel total as READ (multi-piece
 * prices are not linear, so it is never computed from Gate 1) is ≤ cap.
 */
export function gate2(input: { panelTotalCent: Cent | null; maxTotalPriceCent: Cent }): GateVerdict {
  if (input.panelTotalCent === null)
    return fail('PRICE_UNREADABLE', 'panel total unreadable', { kind: 'unreadable', reading: 'panel_total' });
  if (input.panelTotalCent > input.maxTotalPriceCent)
    return fail('GATE2_OVER_CAP', `panel total ${input.panelTotalCent} > cap ${input.maxTotalPriceCent}`, {
      kind: 'panel_total_over_cap',
      panel_total_cent: input.panelTotalCent,
      max_total_price_cent: input.maxTotalPriceCent,
    });
  return pass;
}

/** Gate 3, on the same final panel: `提交订单 ¥X` with X exactly equal to Gate 2 and ≤ cap. */
export function gate3(input: {
  submitAmountCent: Cent | null;
  gate2PanelTotalCent: Cent;
  maxTotalPriceCent: Cent;
}): GateVerdict {
  if (input.submitAmountCent === null)
    return fail('GATE3_MISMATCH', 'submit amount unreadable', { kind: 'unreadable', reading: 'submit_amount' });
  if (input.submitAmountCent !== input.gate2PanelTotalCent) {
    return fail(
      'GATE3_MISMATCH',
      `submit amount ${input.submitAmountCent} ≠ panel total ${input.gate2PanelTotalCent}`,
      {
        kind: 'submit_amount_differs',
        submit_amount_cent: input.submitAmountCent,
        panel_total_cent: input.gate2PanelTotalCent,
      },
    );
  }
  if (input.submitAmountCent > input.maxTotalPriceCent)
    return fail('GATE3_MISMATCH', `submit amount ${input.submitAmountCent} > cap ${input.maxTotalPriceCent}`, {
      kind: 'submit_amount_over_cap',
      submit_amount_cent: input.submitAmountCent,
      max_total_price_cent: input.maxTotalPriceCent,
    });
  return pass;
}

export interface GateReadings {
  gate1UnitPriceCent: Cent | null;
  gate2PanelTotalCent: Cent | null;
  gate3SubmitAmountCent: Cent | null;
  quantityRead: number | null;
}

/** The quantity read back is not the task's. */
const quantityMismatch = (read: number | null, wanted: number): GateVerdict =>
  fail('QUANTITY_READBACK_MISMATCH', `read ${read}, wanted ${wanted}`, { kind: 'quantity_read_back', read, wanted });

/** All three gates plus the quantity read-back, as the fence re-checks them in one place. */
export function allGates(readings: GateReadings, quantity: number, maxTotalPriceCent: Cent): GateVerdict {
  const g1 = gate1({ unitPriceCent: readings.gate1UnitPriceCent, quantity, maxTotalPriceCent });
  if (!g1.pass) return g1;
  if (readings.quantityRead !== quantity) return quantityMismatch(readings.quantityRead, quantity);
  const g2 = gate2({ panelTotalCent: readings.gate2PanelTotalCent, maxTotalPriceCent });
  if (!g2.pass) return g2;
  return gate3({
    submitAmountCent: readings.gate3SubmitAmountCent,
    gate2PanelTotalCent: readings.gate2PanelTotalCent!,
    maxTotalPriceCent,
  });
}

/** How a screen explains one gate: not read yet, or judged by the rules above. */
export type GateStanding = 'pass' | 'fail' | 'pending';

/**
 * Each gate's standing for the operator's 价格闸门 panel, judged by the same functions the phone
 * and the fence use, so the page cannot explain a reading differently from what stopped (or let
 * through) the purchase. A reading not taken is pending, never a pass; a submit amount with no
 * panel total to equal fails, as the fence would have it.
 */
export function gateStandings(
  readings: GateReadings,
  quantity: number,
  maxTotalPriceCent: Cent,
): Record<'gate1' | 'gate2' | 'gate3' | 'quantity', GateStanding> {
  const judged = (reading: number | null, verdict: () => GateVerdict): GateStanding =>
    reading === null ? 'pending' : verdict().pass ? 'pass' : 'fail';
  const panel = readings.gate2PanelTotalCent;
  return {
    gate1: judged(readings.gate1UnitPriceCent, () =>
      gate1({ unitPriceCent: readings.gate1UnitPriceCent, quantity, maxTotalPriceCent }),
    ),
    gate2: judged(panel, () => gate2({ panelTotalCent: panel, maxTotalPriceCent })),
    gate3: judged(readings.gate3SubmitAmountCent, () =>
      panel === null
        ? fail('GATE3_MISMATCH', 'no panel total to equal', { kind: 'unreadable', reading: 'panel_total' })
        : gate3({ submitAmountCent: readings.gate3SubmitAmountCent, gate2PanelTotalCent: panel, maxTotalPriceCent }),
    ),
    quantity: judged(readings.quantityRead, () =>
      readings.quantityRead === quantity ? pass : quantityMismatch(readings.quantityRead, quantity),
    ),
  };
}
