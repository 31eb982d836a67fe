import type { SkusJson } from '../../domain/collect';
import { nowUtc } from '../../domain/time';
import { Readings } from './collect/readings';
import { MEASURED_ROWS_MAX, PanelWalk } from './collect/walk';
import { dimensionKeys } from './dimension-keys';
import { structure } from './match';
import type { PddSession } from './session';

/**
 * Collect one goods, read-only: every option and its price as the panel shows it. Each colour
 * (first dimension) is selected, then each of its rows, and the price read with exactly that row
 * selected (./collect/walk.ts; past `measuredRowsMax` rows a colour's single price is carried
 * over instead). A goods costs a dump per colour, per row in stock and per change of colour, + 3
 * (the goods page, the panel, the reveal swipe). The rows are every combination of the options
 * shown (./collect/readings.ts).
 */
export async function collectGoods(
  session: PddSession,
  goodsId: string,
  measuredRowsMax = MEASURED_ROWS_MAX,
): Promise<SkusJson> {
  const goods = await session.openGoods(goodsId);
  const panel = await session.openSpecPanel(goods);
  const names = panel.names;
  const first = panel.state.sections[0];
  if (!first || first.title !== names[0])
    throw structure('spec panel: the first dimension is not in view when the panel opens');
  if (first.options.some((o) => o.bounds.bottom >= panel.state.view.scroll.bottom))
    throw structure('spec panel: more first-dimension options than fit in view (not profiled)');
  const colours = first.options.map((o) => ({ text: o.text, enabled: o.enabled }));
  const walk = new PanelWalk(session, panel, new Readings(), measuredRowsMax);
  for (const colour of colours) {
    if (colour.enabled) await walk.visitColour(colour.text);
  }
  await session.back(false);

  const keys = dimensionKeys(names);
  const laterValues = walk.laterValues;
  return {
    schema_version: 1,
    goods_id: goodsId,
    title: goods.title,
    shop_name: goods.shopName,
    price_granularity: walk.perSku ? 'sku' : 'color',
    captured_at: nowUtc(),
    dimensions: names.map((name, d) => ({ key: keys[d] as string, name })),
    skus: laterValues === null ? [] : walk.readings.skus([colours.map((c) => c.text), ...laterValues], keys),
    metrics: { sales_text: goods.salesText },
  };
}
