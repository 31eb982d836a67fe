import type { Cent } from '../money';
import type { GateReadings } from './gates';
import type { ExecutionMode, PurchaseStatus } from './status';

/** What the admin hands the purchase workflow: the authorised constraints, no secrets. */
export interface PurchaseWorkflowInput {
  taskId: string;
  authorizationId: string;
  goodsId: string;
  goodsUrl: string;
  /** dimension name as the PDD panel shows it → exact option text */
  options: Record<string, string>;
  quantity: number;
  capCent: Cent;
  mode: ExecutionMode;
  /** UTC; no phone by then → the authorization expires and the task returns to DRAFT */
  expiresAt: string;
}

export function purchaseWorkflowId(taskId: string, authorizationId: string): string {
  return `purchase/${taskId}/${authorizationId}`;
}

export interface PurchaseState {
  status: PurchaseStatus;
  step: string;
  deviceId: string | null;
  reasonCode: string | null;
  orderNo: string | null;
  gates: GateReadings;
  fenced: boolean;
}

export type ResolveReconciliationInput = { outcome: 'created'; orderNo: string } | { outcome: 'not_created' };

export interface OperatorRef {
  /** who asked, for the audit log written by the workflow's admin activity */
  actor: string;
  /** the update id of the operator's request, kept in its audit row (a retried request finds its answer there) */
  requestId?: string;
}
