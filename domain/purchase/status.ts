import { column, PURCHASE_STATUSES, type PurchaseStatus } from './state-machine';

/**
 * Purchase task states and their words, read from the one table in ./state-machine.ts (a new
 * state is a row there, never a line here). WAITING_PAYMENT is not success: a person still has to
 * pay in the PDD app and mark the task paid.
 */
export { PURCHASE_STATUSES, type PurchaseStatus };

export const EXECUTION_MODES = ['dry_run', 'live'] as const;
export type ExecutionMode = (typeof EXECUTION_MODES)[number];

/** The operator's safe next step in every state: no state may leave them stuck. */
export const NEXT_STEP_ZH: Readonly<Record<PurchaseStatus, string>> = column('nextStepZh');

export const STATUS_ZH: Readonly<Record<PurchaseStatus, string>> = column('zh');
