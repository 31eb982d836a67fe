import type { AutoMappingPreview, MappingView, PddSkuRow } from '../../domain/catalog-views';
import type { SkusJson } from '../../domain/collect';
import { normalizeSpecText } from '../../domain/spec-agreement';
import { pddSkuRows } from './pdd-view';

/**
 * 按文字一致全部映射: an unmapped Shopee SKU is mapped to the one collected option combination
 * whose option texts, joined in dimension order, read as the SKU's spec — read the way the order
 * line's spec check reads (domain/spec-agreement.ts: 简繁, width, case, spaces and separators
 * ignored), so `粉紅,S` is {颜色: 粉红, 尺码: S}. Text only, never a guess at meaning: a SKU
 * that reads as several combinations, or none, is left for the operator.
 */

/** Beyond this many dimensions only the dimension order is tried (n! orders). */
const MAX_REORDERED_DIMENSIONS = 4;

/** The texts a SKU's spec is written as: the raw spec, and colour,size without the 建議 when known. */
function skuTexts(sku: { spec_raw: string; color: string | null; size: string | null }): Set<string> {
  const texts = [sku.spec_raw];
  if (sku.color && sku.size) texts.push(`${sku.color},${sku.size}`);
  return new Set(texts.map(normalizeSpecText).filter((t) => t !== ''));
}

function orders<T>(parts: readonly T[]): T[][] {
  if (parts.length <= 1) return [[...parts]];
  return parts.flatMap((p, i) => orders([...parts.slice(0, i), ...parts.slice(i + 1)]).map((rest) => [p, ...rest]));
}

/** Each combination's option texts in dimension order (a dimension the list lacks goes last). */
function optionParts(data: SkusJson): string[][] {
  const dims = data.dimensions.map((d) => d.key);
  return data.skus.map((s) => {
    const keys = [...dims.filter((k) => k in s.options), ...Object.keys(s.options).filter((k) => !dims.includes(k))];
    return keys.map((k) => s.options[k] ?? '');
  });
}

/**
 * The indexes of the combinations that read as one of `texts`: in dimension order first; only
 * when none does, in any order of the parts (`S,粉紅` too). Several indexes mean ambiguous.
 */
export function matchingCombinations(texts: ReadonlySet<string>, parts: readonly string[][]): number[] {
  const reads = (p: readonly string[]): boolean => texts.has(normalizeSpecText(p.join(',')));
  const inOrder = parts.flatMap((p, i) => (reads(p) ? [i] : []));
  if (inOrder.length > 0) return inOrder;
  return parts.flatMap((p, i) =>
    p.length > 1 && p.length <= MAX_REORDERED_DIMENSIONS && orders(p).some(reads) ? [i] : [],
  );
}

/** The preview's lists for one product's SKUs, their mappings and the collect (admin/catalog/products.ts counts them too). */
export function autoMappingsOf(
  skus: ReadonlyArray<{ sku_id: string; spec_raw: string; color: string | null; size: string | null }>,
  mappings: ReadonlyMap<string, MappingView>,
  data: SkusJson,
): Pick<AutoMappingPreview, 'mappable' | 'skipped' | 'already_mapped'> {
  const rows = pddSkuRows(data);
  const parts = optionParts(data);
  const out: Pick<AutoMappingPreview, 'mappable' | 'skipped' | 'already_mapped'> = {
    mappable: [],
    skipped: [],
    already_mapped: 0,
  };
  for (const sku of skus) {
    if (mappings.has(sku.sku_id)) {
      out.already_mapped += 1;
      continue;
    }
    const found = matchingCombinations(skuTexts(sku), parts).map((i) => rows[i] as PddSkuRow);
    const [only] = found;
    if (only && found.length === 1) out.mappable.push({ sku_id: sku.sku_id, spec_raw: sku.spec_raw, pdd: only });
    else
      out.skipped.push({
        sku_id: sku.sku_id,
        spec_raw: sku.spec_raw,
        reason: found.length === 0 ? 'NO_MATCH' : 'AMBIGUOUS',
        candidates: found,
      });
  }
  return out;
}
