import type { Selectable } from 'kysely';
import { canonicalPddGoodsUrl } from '../../domain/pdd-url';
import type { PurchaseWorkflowInput } from '../../domain/purchase/workflow-types';
import type { AdminDatabase } from '../db/schema';

/** The columns of a one-time authorization the purchase's input is made of. */
export type AuthorizationForInput = Pick<
  Selectable<AdminDatabase['order_authorizations']>,
  'id' | 'task_id' | 'goods_id' | 'pdd_options' | 'quantity' | 'max_total_price_cent' | 'execution_mode' | 'expires_at'
>;

/**
 * The purchase workflow's input — what the phone is trusted with — made from the one row that
 * authorised it, whether 「开始采购」 starts the workflow right after its commit
 * (./authorize.ts) or the sweep starts it later (./start.ts): both start the same purchase.
 */
export function purchaseWorkflowInput(auth: AuthorizationForInput): PurchaseWorkflowInput {
  return {
    taskId: auth.task_id,
    authorizationId: auth.id,
    goodsId: auth.goods_id,
    goodsUrl: canonicalPddGoodsUrl(auth.goods_id),
    options: JSON.parse(auth.pdd_options) as Record<string, string>,
    quantity: auth.quantity,
    maxTotalPriceCent: auth.max_total_price_cent,
    mode: auth.execution_mode,
    expiresAt: auth.expires_at,
  };
}
