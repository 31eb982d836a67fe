import { isInferredPrice, type CollectedSku } from '../../../domain/collect';
import { structure } from '../match';
import type { PanelState } from '../panel-state';

/** One price reading and the rows it covers. */
interface Reading {
  price_cent: number | null;
  list_price_cent: number | null;
  raw_price: string | null;
  available: boolean;
  /** values of the dimensions that were selected when the price was read */
  observed: string[];
}

/** A row no price was read for: not available, nothing observed. */
export function unavailable(): Reading {
  return { price_cent: null, list_price_cent: null, raw_price: null, available: false, observed: [] };
}

const rowKey = (values: readonly string[]) => values.join('\u0000');

/**
 * The price readings of one collect, one per SKU row (its values in page order). The first
 * reading of a row is kept: a later, less exact one (a colour's single price after the row was
 * measured) never overwrites it.
 */
export class Readings {
  private readonly rows = new Map<string, Reading>();

  record(values: string[], r: Reading): void {
    if (!this.rows.has(rowKey(values))) this.rows.set(rowKey(values), r);
  }

  /**
   * Every row of the goods, in page order (`values`: each dimension's options), its options
   * keyed by `keys`; a row never read is unavailable.
   */
  skus(values: readonly (readonly string[])[], keys: readonly string[]): CollectedSku[] {
    return cartesian(values).map((row) => {
      const r = this.rows.get(rowKey(row)) ?? unavailable();
      const sku = {
        options: Object.fromEntries(row.map((v, d) => [keys[d] as string, v])),
        price_cent: r.price_cent,
        list_price_cent: r.list_price_cent,
        raw_price: r.raw_price,
        available: r.available,
        price_observed_at: Object.fromEntries(r.observed.map((v, d) => [keys[d] as string, v])),
      };
      return { ...sku, price_inferred: isInferredPrice(sku) };
    });
  }
}

/** Every combination of the options of dimensions k.. as shown in `st` (with their enabled flags). */
export function completions(st: PanelState, k: number): { text: string; enabled: boolean }[][] {
  const lists = st.sections.slice(k).map((s, i) => {
    if (!s) throw structure(`spec panel: dimension ${k + i} is not in view`);
    return s.options.map((o) => ({ text: o.text, enabled: o.enabled }));
  });
  return cartesian(lists);
}

function cartesian<T>(lists: readonly (readonly T[])[]): T[][] {
  return lists.reduce<T[][]>((acc, list) => acc.flatMap((prefix) => list.map((v) => [...prefix, v])), [[]]);
}
