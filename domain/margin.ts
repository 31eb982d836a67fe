import type { Cent } from './money';

/**
 * What one order line earns, in integer CNY cents. The shop sells in TWD and buys in CNY, so the
 * sale is converted at the operator's rate (ppm: CNY per TWD × 1,000,000), Shopee's cut and the
 * fixed cost per line come off, and the purchase's cost comes off last. Every division rounds
 * half away from zero, as a spreadsheet's ROUND does, so the books and this agree to the cent.
 * The same rule runs in SQL for the overview's daily sums (migrations/0160_money.ts); a test
 * holds the two to the same answers on the rounding edges.
 */

/** The rates a line is priced at: frozen on the purchase when it reached 待付款, else today's. */
export interface MoneyRates {
  ratePpm: number;
  feeBp: number;
  lineFeeCnyCent: Cent;
}

export interface LineMoney {
  saleCnyCent: Cent;
  feesCnyCent: Cent;
  /** null: nothing to compare the sale with yet (no purchase, no draft) */
  marginCnyCent: Cent | null;
  /** null with the margin, or when the sale is 0 (a share of nothing) */
  marginBp: number | null;
}

/** `numerator / denominator` rounded half away from zero, exact for any safe integers. */
export function roundHalfUp(numerator: bigint, denominator: bigint): bigint {
  if (denominator <= 0n) throw new RangeError('denominator must be positive');
  const negative = numerator < 0n;
  const abs = negative ? -numerator : numerator;
  const q = (abs * 2n + denominator) / (denominator * 2n);
  return negative ? -q : q;
}

const toSafe = (v: bigint): number => {
  const n = Number(v);
  if (!Number.isSafeInteger(n)) throw new RangeError(`amount out of range: ${v}`);
  return n;
};

/**
 * A line's sale (unit price × quantity) above 1,000,000,000 TWD is a broken upstream, not an
 * order: its money is unknown rather than a figure nobody can check (and the SQL twin stays
 * within 64-bit integers).
 */
export const MAX_SALE_TWD_CENT = 100_000_000_000;

/** The sale in CNY cents: `round_half_up(sale_twd_cent × quantity × rate_ppm / 1e6)`. */
export function saleCnyCent(saleTwdCent: Cent, quantity: number, ratePpm: number): Cent {
  return toSafe(roundHalfUp(BigInt(saleTwdCent) * BigInt(quantity) * BigInt(ratePpm), 1_000_000n));
}

/**
 * One line's money. `costCnyCent` is the purchase's confirmed total, or the draft's cap as an
 * estimate; null leaves the margin null.
 */
export function lineMoney(
  sale: { saleTwdCent: Cent; quantity: number },
  rates: MoneyRates,
  costCnyCent: Cent | null,
): LineMoney | null {
  if (sale.saleTwdCent < 0 || sale.saleTwdCent * sale.quantity > MAX_SALE_TWD_CENT) return null;
  const saleCny = saleCnyCent(sale.saleTwdCent, sale.quantity, rates.ratePpm);
  const fees = toSafe(roundHalfUp(BigInt(saleCny) * BigInt(rates.feeBp), 10_000n)) + rates.lineFeeCnyCent;
  if (costCnyCent === null) return { saleCnyCent: saleCny, feesCnyCent: fees, marginCnyCent: null, marginBp: null };
  const margin = saleCny - fees - costCnyCent;
  const marginBp = saleCny === 0 ? null : toSafe(roundHalfUp(BigInt(margin) * 10_000n, BigInt(saleCny)));
  return { saleCnyCent: saleCny, feesCnyCent: fees, marginCnyCent: margin, marginBp };
}
