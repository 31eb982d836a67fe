import { formatCent } from '../../../../domain/money';
import type { SettingsUpdate } from '../../../../domain/settings';
import { parseYuanAmount } from '../../lib/money';

/**
 * 金额: the four settings the margin is computed with, typed the way a person thinks of them —
 * the rate as 0.225, percentages as 2.5 — and stored as the integers the admin computes with
 * (ppm, basis points, cents). Decimal text is turned into integers by string arithmetic only.
 */
export const MONEY_KEYS = [
  'money.twd_to_cny_rate_ppm',
  'money.platform_fee_bp',
  'money.line_fee_cny_cent',
  'money.min_margin_bp',
] as const;
export type MoneyKey = (typeof MONEY_KEYS)[number];
export type MoneyValues = Record<MoneyKey, number | null>;

type Parsed = { ok: true; value: number | null } | { ok: false; message: string };

/** '0.225' with at most `places` decimals → 225000 (places 6); a sign only when `signed`. */
function decimalToInt(text: string, places: number, signed: boolean): number | null {
  const m = (signed ? /^(-?)(\d{1,7})(?:\.(\d*))?$/ : /^()(\d{1,7})(?:\.(\d*))?$/).exec(text);
  if (!m || (m[3] ?? '').length > places) return null;
  const v = Number(m[2]) * 10 ** places + Number((m[3] ?? '').padEnd(places, '0') || '0');
  return m[1] === '-' ? -v : v;
}

function intToDecimal(value: number, places: number): string {
  const sign = value < 0 ? '-' : '';
  const abs = Math.abs(value);
  const frac = String(abs % 10 ** places)
    .padStart(places, '0')
    .replace(/0+$/, '');
  return `${sign}${Math.floor(abs / 10 ** places)}${frac ? `.${frac}` : ''}`;
}

export function moneyToText(key: MoneyKey, value: number | null): string {
  if (value === null) return '';
  if (key === 'money.twd_to_cny_rate_ppm') return intToDecimal(value, 6);
  if (key === 'money.line_fee_cny_cent') return formatCent(value);
  return intToDecimal(value, 2); // basis points as a percentage
}

function moneyFromText(key: MoneyKey, typed: string): Parsed {
  const text = typed.trim();
  const optional = key === 'money.twd_to_cny_rate_ppm' || key === 'money.min_margin_bp';
  if (text === '') return optional ? { ok: true, value: null } : { ok: false, message: '请填写数值（没有可填 0）' };
  if (key === 'money.line_fee_cny_cent') {
    const p = parseYuanAmount(text);
    return p.ok ? { ok: true, value: p.cents } : p;
  }
  if (key === 'money.twd_to_cny_rate_ppm') {
    const v = decimalToInt(text, 6, false);
    return v === null ? { ok: false, message: '汇率请填小数，最多 6 位小数，例如 0.225' } : { ok: true, value: v };
  }
  const v = decimalToInt(text, 2, key === 'money.min_margin_bp');
  return v === null ? { ok: false, message: '请填百分比数字，最多两位小数，例如 2.5' } : { ok: true, value: v };
}

/** What changed between the typed texts and the saved values, or the refusals by field. */
export function moneyChange(
  texts: Record<MoneyKey, string>,
  saved: MoneyValues,
): { change: SettingsUpdate | null; errors: Partial<Record<MoneyKey, string>> } {
  const errors: Partial<Record<MoneyKey, string>> = {};
  const change: Record<string, number | null> = {};
  for (const key of MONEY_KEYS) {
    const parsed = moneyFromText(key, texts[key]);
    if (!parsed.ok) errors[key] = parsed.message;
    else if (parsed.value !== saved[key]) change[key] = parsed.value;
  }
  return { change: Object.keys(change).length > 0 ? (change as SettingsUpdate) : null, errors };
}
