import type { TapRecord } from './phone';

/**
 * What a tap the simulator recorded was, judged from the simulator's own records: the tests and
 * the chaos run count taps on 提交订单 (either copy of the control) and taps on anything that
 * moves money.
 */
export function isSubmitTap(t: Pick<TapRecord, 'node' | 'target'>): boolean {
  return [t.target, t.node].some(
    (n) => (n?.text ?? '').startsWith('提交订单') || (n?.resource_id ?? '').includes('ll_sku_confirm'),
  );
}

export function isPaymentTap(t: Pick<TapRecord, 'node' | 'target' | 'screen'>): boolean {
  return (
    t.screen === 'cashier' ||
    t.screen === 'payment_handoff' ||
    [t.target, t.node].some(
      (n) =>
        /支付|付款|先用后付/.test(`${n?.text ?? ''}${n?.content_desc ?? ''}`) ||
        (n?.resource_id ?? '').includes('ll_pay'),
    )
  );
}
