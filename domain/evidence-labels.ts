/**
 * What each kind of evidence screenshot shows, in the operator's words; the kinds a phone may
 * upload are listed in admin/evidence/limits.ts (test/browser/chinese.test.ts checks that every
 * one has its name here).
 */
export const EVIDENCE_KIND_ZH = {
  GOODS_PAGE: '商品页',
  SKU_PANEL_GATE_1: '规格面板（闸门一：单价）',
  SKU_PANEL_GATE_2: '规格面板（闸门二：面板总额）',
  SUBMIT_PANEL_GATE_3: '提交面板（闸门三：提交金额）',
  ORDER_RESULT: '下单结果',
  ORDER_LIST: '订单列表',
  SAFETY_STOP: '安全停止时的画面',
  HOLD_FRAME: '人工操作录像',
} as const satisfies Record<string, string>;

/** The Chinese name of a kind; an unknown kind is shown as 截图 rather than as its code. */
export function evidenceKindZh(kind: string): string {
  return Object.prototype.hasOwnProperty.call(EVIDENCE_KIND_ZH, kind)
    ? EVIDENCE_KIND_ZH[kind as keyof typeof EVIDENCE_KIND_ZH]
    : '截图';
}
