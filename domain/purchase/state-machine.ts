import type { PurchaseStatus } from './status';

/**
 * The purchase task's state machine, in one table: which states may follow each state and which
 * operator actions each state allows. The workflow's update validators, the admin activity that
 * writes the state, the API's action routes and the operator UI all ask this module; none keeps
 * its own list. Pure (no I/O, no node imports), so the UI can import it too.
 */

/**
 * What an operator can ask of a purchase task; each name is the task API's route
 * (`POST /api/tasks/:taskId/<action>`, `start` as `POST /api/tasks/start`). `start` and `edit`
 * act on a DRAFT in the admin; the others reach a running workflow as its updates
 * (workflows/purchase/messages.ts), except `cancel` of a DRAFT, which has no workflow yet.
 */
export const OPERATOR_ACTIONS = ['start', 'edit', 'cancel', 'reset', 'mark-paid', 'resolve'] as const;
export type OperatorAction = (typeof OPERATOR_ACTIONS)[number];

interface StateRule {
  /** the states this one may move to; none means terminal */
  next: readonly PurchaseStatus[];
  /** what the operator may ask in this state */
  actions: readonly OperatorAction[];
}

const MACHINE: Record<PurchaseStatus, StateRule> = {
  DRAFT: { next: ['PENDING', 'CANCELED'], actions: ['start', 'edit', 'cancel'] },
  // back to DRAFT: the authorization expired before a phone was free, or an operator reset a stop;
  // NEEDS_MANUAL: the phone that came was refused before any work on it (a revoked device)
  PENDING: { next: ['CLAIMED', 'DRAFT', 'NEEDS_MANUAL', 'CANCELED'], actions: ['cancel'] },
  CLAIMED: { next: ['ORDERING', 'NEEDS_MANUAL', 'DRAFT', 'CANCELED'], actions: ['cancel'] },
  // cancel is refused once the fence was requested: the workflow knows that, not the state
  ORDERING: {
    next: ['NEEDS_MANUAL', 'DRY_RUN_PASSED', 'WAITING_PAYMENT', 'RECONCILIATION_REQUIRED', 'CANCELED'],
    actions: ['cancel'],
  },
  NEEDS_MANUAL: { next: ['DRAFT', 'CANCELED'], actions: ['reset', 'cancel'] },
  WAITING_PAYMENT: { next: ['SUCCEEDED'], actions: ['mark-paid'] },
  RECONCILIATION_REQUIRED: { next: ['WAITING_PAYMENT', 'FAILED'], actions: ['resolve'] },
  DRY_RUN_PASSED: { next: [], actions: [] },
  SUCCEEDED: { next: [], actions: [] },
  FAILED: { next: [], actions: [] },
  CANCELED: { next: [], actions: [] },
};

const UNKNOWN: StateRule = { next: [], actions: [] };

/** A status read from storage is a string; one this table does not know allows nothing. */
function rule(status: string): StateRule {
  return Object.prototype.hasOwnProperty.call(MACHINE, status) ? MACHINE[status as PurchaseStatus] : UNKNOWN;
}

export function canTransition(from: PurchaseStatus, to: PurchaseStatus): boolean {
  return rule(from).next.includes(to);
}

/** Nothing more happens to a task in a terminal state. */
export function isTerminal(status: PurchaseStatus): boolean {
  return rule(status).next.length === 0;
}

/** The operator actions a task in this state offers, in the order the table lists them. */
export function allowedActions(status: PurchaseStatus): readonly OperatorAction[] {
  return rule(status).actions;
}

export function allowsAction(status: PurchaseStatus, action: OperatorAction): boolean {
  return rule(status).actions.includes(action);
}

/**
 * A task whose workflow was closed by hand (terminated, timed out) while the task was neither
 * DRAFT nor terminal has no workflow left to answer the operator: the admin settles it with the
 * operator's answer. An authorization that reached its fence never buys again — not created is
 * FAILED, created waits for payment with its order number; one that never reached the fence
 * created nothing and goes back to DRAFT (starting again takes a new authorization). Null: the
 * answer does not fit (created, without a fence).
 */
export function repairedStatus(
  from: PurchaseStatus,
  outcome: 'created' | 'not_created',
  reachedFence: boolean,
): PurchaseStatus | null {
  if (from === 'DRAFT' || isTerminal(from)) return null;
  if (outcome === 'created') return reachedFence ? 'WAITING_PAYMENT' : null;
  return reachedFence ? 'FAILED' : 'DRAFT';
}
