import { canonicalReason, isReasonCode as isCode, reasonInfo } from '../../../../domain/purchase/reasons';

/**
 * Short Chinese text per reason code for the list's 原因 column and the execution log. A code this
 * UI does not know yet reads 其他原因; the code itself is kept for engineers (the row's
 * `data-reason`, the log's 技术详情), never shown as the operator's text. In 待核对 the tap on
 * 提交订单 has happened, and a stop reads as one after it.
 */
export function reasonZh(code: string | null, status?: string): string {
  if (!code) return '';
  return isReasonCode(code) ? reasonInfo(code, status === 'RECONCILIATION_REQUIRED').zh : '其他原因';
}

/** Known today or under an older spelling (domain/purchase/reasons.ts `canonicalReason`). */
export function isReasonCode(code: string): boolean {
  return isCode(canonicalReason(code));
}
