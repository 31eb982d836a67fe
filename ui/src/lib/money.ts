import { formatCent, yuanToCent } from '../../../domain/money';

/**
 * Money is integer cents end to end. Yuan strings are built and parsed with integer and string
 * arithmetic only: 0.1 + 0.2 must never decide whether a purchase passes its cap.
 */

/**
 * The one way the UI shows an amount: '¥123.45'. Null means unknown (a price the phone could not
 * read, a reading not taken yet) and shows as '—', never as ¥0.00.
 */
export function formatYuan(cents: number | null | undefined): string {
  return cents === null || cents === undefined || !Number.isSafeInteger(cents) ? '—' : `¥${formatCent(cents)}`;
}

/** A Shopee Taiwan amount: 'NT$1,280.50'; null (unknown) shows as '—', never as NT$0. */
export function formatTwd(cents: number | null | undefined): string {
  if (cents === null || cents === undefined || !Number.isSafeInteger(cents)) return '—';
  const [whole = '0', frac = '00'] = formatCent(cents).split('.');
  return `NT$${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${frac}`;
}

export type ParsedCents = { ok: true; cents: number } | { ok: false; message: string };

/**
 * '12', '12.5', '12.50', '0' → cents, by the domain's one yuan parser (domain/money.ts); what
 * it refuses is told apart here only to say why, in Chinese: more than two decimals, signs,
 * exponents, more than ¥999,999,999.
 */
export function parseYuanAmount(input: string): ParsedCents {
  const s = input.trim();
  if (s === '') return { ok: false, message: '请填写金额' };
  if (!/^\d+(?:\.\d*)?$/.test(s)) return { ok: false, message: '请填写数字金额，例如 59.90' };
  const [whole = '', frac = ''] = s.split('.');
  if (frac.length > 2) return { ok: false, message: '金额最多两位小数（到分）' };
  const cents = yuanToCent(frac === '' ? whole : s);
  return cents === null ? { ok: false, message: '金额过大' } : { ok: true, cents };
}

/** A cap: a yuan amount above zero. */
export function parseYuanToCents(input: string): ParsedCents {
  if (input.trim() === '') return { ok: false, message: '请填写最高总价' };
  const parsed = parseYuanAmount(input);
  if (parsed.ok && parsed.cents <= 0) return { ok: false, message: '最高总价必须大于 0' };
  return parsed;
}

/** Sum of caps; integers stay exact below 2^53 cents, far beyond any batch. */
export function sumCents(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

/** 1234 basis points → '12.34%'; null → '—'. */
export function formatBp(bp: number | null): string {
  if (bp === null) return '—';
  const sign = bp < 0 ? '-' : '';
  const abs = Math.abs(bp);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}%`;
}
