/**
 * Chinese names of the purchase records the task page shows beside the task's own state
 * (domain/purchase/status.ts): the authorization an operator gave, and the steps of the timeline
 * that are not task states.
 */

/** An authorization's life (admin/db/tables/purchase.ts `AuthorizationStatus`). */
export const AUTHORIZATION_STATUS_ZH = {
  ACTIVE: '有效，待领取',
  CLAIMED: '手机已领取',
  FENCED: '已获准提交一次',
  CONSUMED: '已用掉',
  EXPIRED: '已过期',
  ABANDONED: '已作废',
} as const satisfies Record<string, string>;
type AuthorizationStatusName = keyof typeof AUTHORIZATION_STATUS_ZH;

/** Timeline steps that are records of the submission rather than task states. */
export const TIMELINE_STEP_ZH = {
  FENCED: '已获准点击一次「提交订单」',
} as const satisfies Record<string, string>;

export function authorizationStatusZh(status: string): string | null {
  return Object.prototype.hasOwnProperty.call(AUTHORIZATION_STATUS_ZH, status)
    ? AUTHORIZATION_STATUS_ZH[status as AuthorizationStatusName]
    : null;
}
