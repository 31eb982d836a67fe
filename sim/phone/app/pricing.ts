import type { Goods, Sku } from '../catalog/schema';
import { formatRange, formatYuan } from '../money';

export type Selection = (string | null)[];

export interface PriceOverride {
  price_cent: number;
  tier_totals_cent?: Record<string, number>;
}

/** Prices as the app currently quotes them (a price_change fault may override one SKU). */
export interface Pricing {
  unit(sku: Sku): number;
  total(sku: Sku, qty: number): number;
}

export function skuKey(goodsId: string, options: readonly string[]): string {
  return `${goodsId}\u0000${options.join('\u0000')}`;
}

export function makePricing(goodsId: string, overrides: ReadonlyMap<string, PriceOverride>): Pricing {
  const eff = (sku: Sku): PriceOverride => overrides.get(skuKey(goodsId, sku.options)) ?? sku;
  return {
    unit: (sku) => eff(sku).price_cent,
    total: (sku, qty) => {
      const e = eff(sku);
      return e.tier_totals_cent?.[String(qty)] ?? e.price_cent * qty;
    },
  };
}

function matches(sku: Sku, sel: Selection, skipDim = -1): boolean {
  return sel.every((v, d) => d === skipDim || v === null || sku.options[d] === v);
}

export function optionEnabled(goods: Goods, sel: Selection, dim: number, value: string): boolean {
  return goods.skus.some((s) => s.stock > 0 && s.options[dim] === value && matches(s, sel, dim));
}

export function isComplete(sel: Selection): sel is string[] {
  return sel.every((v) => v !== null);
}

export function fixedSku(goods: Goods, sel: Selection): Sku | undefined {
  if (!isComplete(sel)) return undefined;
  return goods.skus.find((s) => s.options.every((v, d) => v === sel[d]));
}

export function maxQuantity(goods: Goods, sel: Selection): number {
  const sku = fixedSku(goods, sel);
  return sku ? Math.max(1, sku.stock) : 99;
}

/** The top price of the panel: a range, a shared unit price, or the total for the count. */
export function topPriceText(goods: Goods, sel: Selection, qty: number, pricing: Pricing): string {
  const sku = fixedSku(goods, sel);
  if (sku) return formatYuan(pricing.total(sku, qty), sku.coupon === true);
  let cands = goods.skus.filter((s) => s.stock > 0 && matches(s, sel));
  if (cands.length === 0) cands = goods.skus.filter((s) => matches(s, sel));
  return rangeText(cands, pricing);
}

export function rangeText(skus: readonly Sku[], pricing: Pricing): string {
  if (skus.length === 0) return '';
  const prices = skus.map((s) => pricing.unit(s));
  return formatRange(
    Math.min(...prices),
    Math.max(...prices),
    skus.every((s) => s.coupon === true),
  );
}
