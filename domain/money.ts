/**
 * Money is integer cents, never a float (docs/architecture.md §6). Prices on the PDD screen are
 * parsed by string so `¥12.56` is exactly 1256, not 1255.9999.
 */
export type Cent = number;

const YUAN_RE = /^(\d{1,9})(?:\.(\d{1,2}))?$/;

/** `"12.56"` → 1256; `"12"` → 1200; `"12.5"` → 1250; anything else → null. */
export function yuanToCent(text: string): Cent | null {
  const m = YUAN_RE.exec(text.trim());
  if (!m) return null;
  const whole = Number(m[1]);
  const frac = Number((m[2] ?? '').padEnd(2, '0'));
  return whole * 100 + frac;
}

export interface ParsedPrice {
  cent: Cent;
  /** the price shown after a coupon (`券后¥…`) */
  coupon: boolean;
}

/**
 * A single price as PDD shows it: `¥12.56`, `券后¥12.56`, `￥12.56`. A range (`¥12.56-19.90`),
 * an empty string or any other decoration → null: an unreadable price is unknown, never 0.
 */
export function parsePriceText(text: string): ParsedPrice | null {
  const m = /^(券后)?\s*[¥￥]\s*(\d[\d.]*)$/.exec(text.trim());
  if (!m || m[2] === undefined) return null;
  const cent = yuanToCent(m[2]);
  return cent === null ? null : { cent, coupon: m[1] !== undefined };
}

/** `¥12.56-19.90` → {min: 1256, max: 1990}; a single price → null. */
export function parsePriceRange(text: string): { minCent: Cent; maxCent: Cent } | null {
  const m = /^(?:券后)?\s*[¥￥]\s*(\d[\d.]*)\s*[-~～]\s*[¥￥]?\s*(\d[\d.]*)$/.exec(text.trim());
  if (!m || m[1] === undefined || m[2] === undefined) return null;
  const min = yuanToCent(m[1]);
  const max = yuanToCent(m[2]);
  return min === null || max === null ? null : { minCent: min, maxCent: max };
}

export function formatCent(cent: Cent): string {
  if (!Number.isSafeInteger(cent)) throw new RangeError(`not an integer cent amount: ${cent}`);
  const sign = cent < 0 ? '-' : '';
  const abs = Math.abs(cent);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}
