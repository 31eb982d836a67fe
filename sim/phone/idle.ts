import type { Phone } from './phone';

/** What `uiautomator dump` prints (on stderr, exit 0) when the app never went idle (AOSP DumpCommand). */
export const IDLE_REFUSED = 'ERROR: could not get idle state.\n';

/**
 * Whether the app screen shown now never goes idle, so `uiautomator dump` times out on it: the
 * screens the fault `never_idle` names (`true`: every app screen, `false`: none), else — with the
 * `realistic` profile only — the goods page and spec panel of goods with a running countdown.
 */
export function neverIdle(phone: Phone): boolean {
  const fault = phone.faults.never_idle;
  if (fault !== undefined) return Array.isArray(fault) ? fault.includes(phone.app.screenName()) : fault;
  const screen = phone.app.screenName();
  const top = phone.app.top();
  if (phone.latencyProfile !== 'realistic' || (screen !== 'goods_detail' && screen !== 'sku_panel')) return false;
  return 'goodsId' in top && phone.app.goods(top.goodsId)?.countdown === true;
}
