import { foldForSearch } from './catalog-search';
import { specMatchKey } from './syb';

/*
 * Whether an order line's 规格 and a Shopee SKU's spec say the same thing. Apart from
 * domain/syb.ts because it folds traditional into simplified characters with the dictionary
 * domain/catalog-search.ts builds: the operator UI imports domain/syb.ts for its labels, and
 * must not carry (or build at load) a dictionary it never uses.
 */

/**
 * A spec text as an operator reads it: traditional → simplified Chinese, full-width → half-width
 * (NFKC), lower case (the search fold), then no spaces and no list separators — `粉紅 S`, `粉紅,S`
 * and `粉红/S` are one spec written three ways. Two specs that read the same are the same;
 * anything else is 规格不一致 (PUT /api/syb/orders/:sybId/sku).
 */
export function normalizeSpecText(spec: string | null): string {
  if (spec === null) return '';
  return foldForSearch(spec).replace(/[\s,，、;；/|]+/g, '');
}

/** Whether a Shopee SKU's spec reads as the order line's 规格 (either side parsed or as text). */
export function specsAgree(lineSpec: string | null, skuSpec: string | null): boolean {
  if (normalizeSpecText(lineSpec) === normalizeSpecText(skuSpec)) return true;
  const a = specMatchKey(lineSpec);
  return a !== null && a === specMatchKey(skuSpec);
}
