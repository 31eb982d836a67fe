import { defineQuery, defineUpdate } from '@temporalio/workflow';
import { HOLDS_CLAIM_QUERY } from './device-activities';
import type { OperatorAction } from '../purchase/state-machine';
import type {
  OperatorAnswer,
  OperatorRef,
  PurchaseState,
  ResolveReconciliationInput,
} from '../purchase/workflow-types';

/**
 * The purchase workflow's messages, defined once: the workflow registers its handlers with these
 * objects and the admin passes the same objects to `executeUpdate`/`query`. The wire names are
 * what running workflows already answer to, so they never change. An update answers what
 * happened (OperatorAnswer); one accepted by code from before that answered nothing (null).
 */
export const cancelUpdate = defineUpdate<OperatorAnswer | null, [OperatorRef]>('cancel');
export const resetUpdate = defineUpdate<OperatorAnswer | null, [OperatorRef]>('reset');
export const markPaidUpdate = defineUpdate<OperatorAnswer | null, [OperatorRef]>('markPaid');
export const resolveReconciliationUpdate = defineUpdate<
  OperatorAnswer | null,
  [OperatorRef & ResolveReconciliationInput]
>('resolveReconciliation');
export const stateQuery = defineQuery<PurchaseState>('state');
/**
 * Asked by a phone host about its open claim (by claim id): true while this workflow holds that
 * claim and has not begun to release it. Every workflow that claims a phone answers it
 * (workflows/device-claim.ts); false lets the host free the phone while the workflow runs on.
 */
export const holdsClaimQuery = defineQuery<boolean, [string]>(HOLDS_CLAIM_QUERY);

/** The operator actions a running purchase workflow takes as updates, and which update each is. */
export const OPERATOR_UPDATES = {
  cancel: cancelUpdate,
  reset: resetUpdate,
  'mark-paid': markPaidUpdate,
  resolve: resolveReconciliationUpdate,
} as const satisfies Partial<Record<OperatorAction, unknown>>;

export type WorkflowAction = keyof typeof OPERATOR_UPDATES;
