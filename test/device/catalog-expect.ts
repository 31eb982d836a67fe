import type { Catalog, Goods } from '../../sim/phone/index';
import type { SkusJson } from '../../domain/collect';
import { MEASURED_ROWS_MAX } from '../../device-worker/pdd/collect/walk';

/**
 * What a correct collect of a catalog goods must say (the sim's catalog is the truth the phone
 * shows). Returns a list of differences; empty means equal.
 */
export function diffCollect(goods: Goods, got: SkusJson): string[] {
  const out: string[] = [];
  const names = goods.dimensions.map((d) => d.name);
  if (got.goods_id !== goods.goods_id) out.push(`goods_id ${got.goods_id}`);
  if (got.title !== goods.title) out.push(`title ${got.title}`);
  if (got.shop_name !== goods.shop_name) out.push(`shop ${got.shop_name}`);
  if (JSON.stringify(got.dimensions.map((d) => d.name)) !== JSON.stringify(names))
    out.push(`dimension names ${got.dimensions.map((d) => d.name).join('/')}`);
  const keys = got.dimensions.map((d) => d.key);
  const combos = goods.dimensions.reduce<string[][]>(
    (acc, d) => acc.flatMap((p) => d.values.map((v) => [...p, v])),
    [[]],
  );
  if (got.skus.length !== combos.length) out.push(`${got.skus.length} skus, expected ${combos.length}`);
  // a colour whose in-stock SKUs differ in price shows a range → its rows are measured per SKU
  const colourHasRange = (c: string) =>
    new Set(goods.skus.filter((s) => s.options[0] === c && s.stock > 0).map((s) => s.price_cent)).size > 1;
  const perSku = goods.dimensions.length === 1 || goods.dimensions[0]!.values.some(colourHasRange);
  if (got.price_granularity !== (perSku ? 'sku' : 'color')) out.push(`granularity ${got.price_granularity}`);
  combos.forEach((values, i) => {
    const row = got.skus[i];
    const label = values.join('/');
    if (!row) return;
    if (JSON.stringify(keys.map((k) => row.options[k])) !== JSON.stringify(values))
      out.push(`${label}: options ${JSON.stringify(row.options)}`);
    const sku = goods.skus.find((s) => s.options.every((v, d) => v === values[d]));
    const available = !!sku && sku.stock > 0;
    if (row.available !== available) out.push(`${label}: available ${row.available}`);
    if (!available) {
      if (row.price_cent !== null) out.push(`${label}: unavailable but priced ${row.price_cent}`);
      return;
    }
    if (row.price_cent !== sku!.price_cent) out.push(`${label}: price ${row.price_cent} ≠ ${sku!.price_cent}`);
    if ((row.raw_price ?? '').startsWith('券后') !== (sku!.coupon === true))
      out.push(`${label}: raw ${row.raw_price} vs coupon ${sku!.coupon}`);
    const measured = Object.keys(row.price_observed_at).length === values.length;
    const colourOnly = !measured && JSON.stringify(row.price_observed_at) === JSON.stringify({ [keys[0]!]: values[0] });
    if (!measured && !colourOnly) out.push(`${label}: observed at ${JSON.stringify(row.price_observed_at)}`);
    if (row.price_inferred !== (!measured && row.price_cent !== null))
      out.push(`${label}: price_inferred ${row.price_inferred} though ${measured ? 'measured' : 'carried over'}`);
    // every row of a goods within what one collect measures is read with exactly that row selected
    if (!measured && combos.length <= MEASURED_ROWS_MAX) out.push(`${label}: carried over though it could be measured`);
    if (measured && (row.list_price_cent ?? null) !== (sku!.list_price_cent ?? null))
      out.push(`${label}: list ${row.list_price_cent} ≠ ${sku!.list_price_cent}`);
    if (!measured && row.list_price_cent != null) out.push(`${label}: a list price without a fixed SKU`);
  });
  return out;
}

export function onSale(c: Catalog): Goods[] {
  return c.goods.filter((g) => g.status === 'on_sale');
}
