import type { PurchaseStatus } from './status';

/**
 * Every allowed change of a purchase task's state (seed 002 §5.2). Anything not listed is
 * refused, by the admin DB writer and by the workflow's update validators alike.
 */
const ALLOWED: Record<PurchaseStatus, readonly PurchaseStatus[]> = {
  DRAFT: ['PENDING', 'CANCELED'],
  PENDING: ['CLAIMED', 'DRAFT', 'CANCELED'],
  CLAIMED: ['ORDERING', 'NEEDS_MANUAL', 'DRAFT', 'CANCELED'],
  ORDERING: ['NEEDS_MANUAL', 'DRY_RUN_PASSED', 'WAITING_PAYMENT', 'RECONCILIATION_REQUIRED', 'CANCELED'],
  NEEDS_MANUAL: ['DRAFT', 'CANCELED'],
  WAITING_PAYMENT: ['SUCCEEDED'],
  RECONCILIATION_REQUIRED: ['WAITING_PAYMENT', 'FAILED'],
  DRY_RUN_PASSED: [],
  SUCCEEDED: [],
  FAILED: [],
  CANCELED: [],
};

export function canTransition(from: PurchaseStatus, to: PurchaseStatus): boolean {
  return ALLOWED[from].includes(to);
}
