import { AUTHORIZATION_STATES, type AuthorizationStatus } from './purchase/record-states';

/**
 * Chinese names of the purchase records the task page shows beside the task's own state
 * (domain/purchase/status.ts): the authorization an operator gave, and the steps of the timeline
 * that are not task states.
 */

/**
 * An authorization's life in the operator's words (domain/purchase/record-states.ts); a state
 * without words there shows its code, which the UI's Chinese-only check refuses.
 */
export const AUTHORIZATION_STATUS_ZH = Object.fromEntries(
  AUTHORIZATION_STATES.all.map((s) => [s, AUTHORIZATION_STATES.zh(s) ?? s]),
) as Readonly<Record<AuthorizationStatus, string>>;

/** The timeline step of a popup the phone closed before the final panel (detail `interstitial <name>`). */
export const INTERSTITIAL_CLOSED = 'INTERSTITIAL_CLOSED';

/** Timeline steps that are records of the phone's own taps rather than task states. */
export const TIMELINE_STEP_ZH = {
  FENCED: '已获准点击一次「提交订单」',
  [INTERSTITIAL_CLOSED]: '手机关闭了一个弹窗',
} as const satisfies Record<string, string>;

/**
 * The app-version profile's interstitial names (device-worker/pdd/profiles/*.json) in the
 * operator's words; a name missing here reads as 弹窗.
 */
const INTERSTITIAL_ZH: Record<string, string> = {
  update_prompt: '新版本提示（以后再说）',
  red_packet: '现金红包弹窗',
  cash_gift: '大额现金弹窗',
  subsidy_coupon: '百亿补贴领券弹窗',
  free_order: '免单特权弹窗',
  order_success: '下单成功弹窗',
  teen_mode: '青少年模式提示（我知道了）',
  notification_prompt: '开启消息通知提示',
  float_video: '商品页悬浮视频',
  limited_deal_mask: '限时抢购遮罩',
};

export function interstitialZh(name: string): string {
  return Object.prototype.hasOwnProperty.call(INTERSTITIAL_ZH, name) ? INTERSTITIAL_ZH[name]! : '弹窗';
}

export function authorizationStatusZh(status: string): string | null {
  return AUTHORIZATION_STATES.has(status) ? AUTHORIZATION_STATUS_ZH[status] : null;
}
