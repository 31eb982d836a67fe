import { parsePriceRange, parsePriceText, yuanToCent } from '../../domain/money';

/** The panel's top price as shown: one price, a range, or unreadable. */
export type PanelPrice =
  | { kind: 'single'; cent: number; coupon: boolean; raw: string }
  | { kind: 'range'; minCent: number; maxCent: number; raw: string }
  | { kind: 'unreadable'; raw: string };

export function readPanelPrice(text: string): PanelPrice {
  const single = parsePriceText(text);
  // ¥0.00 is not a price anyone pays: an unknown price is null, never 0.
  if (single && single.cent > 0) return { kind: 'single', cent: single.cent, coupon: single.coupon, raw: text };
  const range = parsePriceRange(text);
  if (range) return { kind: 'range', ...range, raw: text };
  return { kind: 'unreadable', raw: text };
}

/** The struck-through list price `¥19.90`: never a coupon price, never a range. */
export function readListPrice(text: string | null): number | null {
  if (text === null) return null;
  const m = /^[¥￥](\d+(?:\.\d{1,2})?)$/.exec(text.trim());
  return m?.[1] ? yuanToCent(m[1]) : null;
}
