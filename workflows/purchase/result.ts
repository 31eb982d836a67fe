import type { FinalPanelReading } from '../../domain/contracts/device-activities';
import type { PurchaseResult } from '../../domain/purchase/schemas';
import type { PurchaseWorkflowInput } from '../../domain/purchase/workflow-types';

/** The `purchase` object of the task's result: what was asked, what the final panel confirmed, what came of it. */
export function purchaseResult(
  input: PurchaseWorkflowInput,
  full: FinalPanelReading,
  outcome: { submitted: boolean; orderNo?: string | null; orderedAtRaw?: string | null; orderedAt?: string | null },
): PurchaseResult {
  return {
    mode: input.mode,
    // the one place the cap is `max_price_cent`: the result's shape names it so
    requested: { options: input.options, quantity: input.quantity, max_price_cent: input.maxTotalPriceCent },
    confirmed: {
      options: full.options,
      quantity: full.quantityRead ?? input.quantity,
      unit_price_cent: full.gate1UnitPriceCent,
      total_price_cent: full.gate3SubmitAmountCent,
    },
    confirmation_reached: true,
    order_submitted: outcome.submitted,
    payment_attempted: false,
    payment_status: outcome.submitted && outcome.orderNo ? 'unpaid' : null,
    pdd_order_no: outcome.orderNo ?? null,
    ordered_at: outcome.orderedAt ?? null,
    ordered_at_raw: outcome.orderedAtRaw ?? null,
    match_status: !outcome.submitted ? 'not_submitted' : outcome.orderNo ? 'matched' : 'pending',
  };
}
