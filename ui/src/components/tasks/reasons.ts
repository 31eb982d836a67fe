import { isReasonCode, REASONS } from '../../../../domain/purchase/reasons';

/** Short Chinese text per reason code for the list's 原因 column; the code itself when unknown, so nothing is hidden. */
export function reasonZh(code: string | null): string {
  if (!code) return '';
  return isReasonCode(code) ? REASONS[code].zh : code;
}
