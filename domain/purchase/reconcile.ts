import type { PendingOrder } from './orders';
import { sameOptions } from '../option-key';

const RECONCILE_WINDOW_MS = 5 * 60_000;

export interface SubmittedFacts {
  goodsId: string;
  options: Record<string, string>;
  quantity: number;
  amountCent: number;
  /** when the tap happened (UTC) */
  submittedAt: string;
}

export type ReconcileVerdict =
  { matched: true; order: PendingOrder } | { matched: false; candidates: number; why: string };

/**
 * Read-only reconciliation after an unclear submit: exactly one unpaid order matching goods,
 * options, quantity and amount, placed within ±5 min of the tap. Zero or several → a person decides.
 */
export function matchPendingOrder(orders: readonly PendingOrder[], facts: SubmittedFacts): ReconcileVerdict {
  const at = Date.parse(facts.submittedAt);
  const candidates = orders.filter(
    (o) =>
      o.goodsId === facts.goodsId &&
      sameOptions(o.options, facts.options) &&
      o.quantity === facts.quantity &&
      o.amountCent === facts.amountCent &&
      o.placedAt !== null &&
      Math.abs(Date.parse(o.placedAt) - at) <= RECONCILE_WINDOW_MS &&
      o.orderNo.length > 0,
  );
  if (candidates.length === 1) return { matched: true, order: candidates[0]! };
  return {
    matched: false,
    candidates: candidates.length,
    why: candidates.length === 0 ? 'no matching unpaid order' : 'more than one matching order',
  };
}
