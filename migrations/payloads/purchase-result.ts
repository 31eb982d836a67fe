/**
 * Payload migration: the `purchase` object of a task's result named the PDD order number
 * `order_no` until each order number took a name that says which (`pdd_order_no`; the 顺运宝 one
 * is `syb_order_no`). A `savePurchaseResult` scheduled before a deploy still carries the old name
 * when it runs after it, so the activity reads its input through here; the results already
 * stored were rewritten by migration 0146 (docs/versioning.md "Renaming a field of a workflow
 * input").
 *
 * Pure and free of our imports; like ./purchase-input.ts, it keeps the old name so no other code
 * has to.
 */

/** The result with the PDD order number under `pdd_order_no`; anything else comes back as it is. */
export function upgradePurchaseResult<T>(recorded: T): T {
  if (typeof recorded !== 'object' || recorded === null || !('order_no' in recorded)) return recorded;
  const { order_no: orderNo, ...rest } = recorded as Record<string, unknown>;
  return { ...rest, pdd_order_no: 'pdd_order_no' in rest ? rest.pdd_order_no : orderNo } as T;
}
