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
  /** the authorised cap on the whole order; an input recorded before may name it otherwise (migrations/payloads/) */
  maxTotalPriceCent: Cent;
  mode: ExecutionMode;
  /** UTC; no phone by then → the authorization expires and the task returns to DRAFT */
  expiresAt: string;
  /**
   * How long a purchase parked for its operator (需人工处理, 待核对, 待付款) waits before its
   * workflow closes and the admin's repair of a closed workflow takes the task (docs/versioning.md);
   * absent: OPERATOR_WAIT_DAYS_DEFAULT.
   */
  operatorWaitDays?: number;
}

/** A parked purchase waits this long for its operator unless the admin says otherwise. */
export const OPERATOR_WAIT_DAYS_DEFAULT = 30;

export function purchaseWorkflowId(taskId: string, authorizationId: string): string {
  return `purchase/${taskId}/${authorizationId}`;
}

/**
 * The purchase workflow's steps, in the order it takes them (workflows/purchase/index.ts): what its
 * `state` query answers as `step`. The chaos run (docs/chaos.md) kills every process at the
 * boundary into each, so a new step is new kill points.
 */
export const PURCHASE_STEPS = ['waiting_for_phone', 'preparing', 'fence', 'submit', 'observe', 'reconcile'] as const;
type PurchaseStep = (typeof PURCHASE_STEPS)[number];

export interface PurchaseState {
  status: PurchaseStatus;
  step: PurchaseStep;
  deviceId: string | null;
  reasonCode: string | null;
  /** the PDD order number; wire name kept: recorded workflow histories carry it (docs/api.md "Names") */
  orderNo: string | null;
  gates: GateReadings;
  fenced: boolean;
}

/** `orderNo` is the PDD order number the operator found; wire name kept: recorded workflow histories carry it (docs/api.md "Names"). */
export type ResolveReconciliationInput = { outcome: 'created'; orderNo: string } | { outcome: 'not_created' };

/**
 * What an operator's update answers: `applied` — this request made the change and `status` is
 * the state it wrote; `superseded` — the workflow got there first (its own reconcile found the
 * order) and `status` is the state that won, the request changed nothing.
 */
export interface OperatorAnswer {
  result: 'applied' | 'superseded';
  status: PurchaseStatus;
}

export interface OperatorRef {
  /** who asked, for the audit log written by the workflow's admin activity */
  actor: string;
  /** the update id of the operator's request, kept in its audit row (a retried request finds its answer there) */
  requestId?: string;
}
