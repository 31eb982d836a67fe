/**
 * After 标记已付款: a read-only look at the phone's 待付款 list says whether the order really
 * left it (workflows/payment-check.ts). What the look found, and what the task shows for it.
 */

export type PaymentCheckStatus = 'pending' | 'confirmed' | 'mismatch' | 'unavailable';

/** The latest check of a task marked paid, as the task list and the task page show it. */
export interface PaymentCheckView {
  status: PaymentCheckStatus;
  /** when the phone was looked at; null while pending */
  checked_at: string | null;
  /** what a person reads about it (zh-CN); null while pending */
  message: string | null;
}

/**
 * Only the first screen of the 待付款 tab is read. A screen holds at least this many order cards,
 * so with fewer unpaid orders listed the list was read whole; with this many or more an order
 * not seen may be further down, and its payment is not confirmed — never silently accepted.
 */
const ORDERS_ONE_SCREEN_HOLDS = 3;

/**
 * The verdict for one task: `listed` are the order numbers the phone showed as 待付款, or null
 * when the list could not be read (`why` says what happened, in Chinese).
 */
export function paymentCheckVerdict(
  pddOrderNo: string | null,
  listed: readonly string[] | null,
  why = '未能读取手机上的待付款列表',
): { status: Exclude<PaymentCheckStatus, 'pending'>; message: string } {
  if (listed === null) return { status: 'unavailable', message: `${why}：请在手机上核对这笔订单是否已付款` };
  if (!pddOrderNo) return { status: 'unavailable', message: '任务没有拼多多订单号，无法在手机上核对' };
  if (listed.includes(pddOrderNo))
    return {
      status: 'mismatch',
      message: `已标记付款，但手机上订单 ${pddOrderNo} 仍在「待付款」里：请在手机上付款，然后点「重新核对」`,
    };
  if (listed.length >= ORDERS_ONE_SCREEN_HOLDS)
    return {
      status: 'unavailable',
      message: `手机上的待付款订单有 ${listed.length} 笔以上，一屏看不全，无法确认这笔已付款：请在手机上核对`,
    };
  return { status: 'confirmed', message: '手机上的待付款列表里已没有这笔订单' };
}
