import { allowsAction, canTransition, phaseOf, type PurchaseStatus } from './state-machine';

/**
 * Where the operator's answer takes a task whose workflow was closed by hand (terminated, timed
 * out) while the task was neither DRAFT nor terminal: no workflow is left to answer, so the admin
 * settles it (admin/purchase/repair.ts). Every rule is the state machine's: the answer must be an
 * action the state offers, leading along one of its transitions. Pure, so the UI offers exactly
 * the buttons the admin accepts.
 */

/** The operator's answers to a closed workflow; `resolve` carries whether the order was created. */
export type RepairAction = 'mark-paid' | 'reset' | 'cancel' | 'resolve-created' | 'resolve-not-created';

/** A task in this state has (or had) a workflow that should still be open: not a draft, not ended. */
export function expectsOpenWorkflow(status: string): boolean {
  const phase = phaseOf(status);
  return phase === 'running' || phase === 'person';
}

/**
 * The state a repair answer leads to, or null when it does not fit. `reachedFence`: the
 * authorization reached its submission fence (an `order_submissions` row, tapped or not) — it
 * never buys again. Not created is then FAILED; created waits for payment with its order number.
 * Short of the fence nothing was created: not created goes back to DRAFT (a new start takes a new
 * authorization), created is impossible. Cancel is refused past the fence unless the task waits
 * for a person in a state that offers it (a safe stop: nothing was tapped).
 */
export function repairedStatus(
  from: PurchaseStatus,
  action: RepairAction,
  reachedFence: boolean,
): PurchaseStatus | null {
  if (!expectsOpenWorkflow(from)) return null;
  const via = (action: 'mark-paid' | 'reset' | 'cancel', to: PurchaseStatus) =>
    allowsAction(from, action) && canTransition(from, to) ? to : null;
  switch (action) {
    case 'mark-paid':
      return via('mark-paid', 'SUCCEEDED');
    case 'reset':
      return via('reset', 'DRAFT');
    case 'cancel':
      return phaseOf(from) === 'person' || !reachedFence ? via('cancel', 'CANCELED') : null;
    // the operator's reading of PDD settles any open state, whatever the workflow got to
    case 'resolve-created':
      return reachedFence ? 'WAITING_PAYMENT' : null;
    case 'resolve-not-created':
      return reachedFence ? 'FAILED' : 'DRAFT';
  }
}

/**
 * The repair buttons the task page shows for a closed workflow: the answers `repairedStatus`
 * could accept from this state. Whether the fence was reached only the admin knows, so both
 * resolve answers are shown; its refusal is shown as is.
 */
export function repairActions(from: PurchaseStatus): readonly RepairAction[] {
  if (!expectsOpenWorkflow(from)) return [];
  if (allowsAction(from, 'mark-paid')) return ['mark-paid'];
  return ['resolve-created', 'resolve-not-created'];
}
