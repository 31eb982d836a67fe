import { isReasonCode, REASONS } from '../../../../domain/purchase/reasons';

/**
 * Short Chinese text per reason code for the list's 原因 column and the execution log. A code this
 * UI does not know yet reads 其他原因; the code itself is kept for engineers (the row's
 * `data-reason`, the log's 技术详情), never shown as the operator's text.
 */
export function reasonZh(code: string | null): string {
  if (!code) return '';
  return isReasonCode(code) ? REASONS[code].zh : '其他原因';
}

export { isReasonCode };
