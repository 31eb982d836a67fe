import { isInferredPrice, type CollectedSku, type SkusJson } from '../../domain/collect';
import { nowUtc } from '../../domain/time';
import { DeviceError } from '../errors';
import { dimensionKeys } from './dimension-keys';
import { structure } from './match';
import { optionIn, type PanelState } from './panel-state';
import { readListPrice, readPanelPrice } from './price';
import type { OpenPanel, PddSession } from './session';
import { tappable } from './panel-view';

/** One price reading and the rows it covers. */
interface Reading {
  price_cent: number | null;
  list_price_cent: number | null;
  raw_price: string | null;
  available: boolean;
  /** values of the dimensions that were selected when the price was read */
  observed: string[];
}

const rowKey = (values: readonly string[]) => values.join('\u0000');

/**
 * Collect one goods: every option and its price as the
 * panel shows it. Each colour (first dimension) is selected once and its price read; when
 * the panel shows a range for a colour, its sizes (and further dimensions) are selected one
 * by one until one price shows, and those rows are measured per SKU. The sizes are revealed
 * by the one profiled swipe and later colours are tapped in that revealed view, so a goods
 * with one price per colour costs (colours + 4) dumps.
 */
export async function collectGoods(session: PddSession, goodsId: string): Promise<SkusJson> {
  const goods = await session.openGoods(goodsId);
  let panel = await session.openSpecPanel(goods);
  const names = panel.names;
  const first = panel.state.sections[0];
  if (!first || first.title !== names[0])
    throw structure('spec panel: the first dimension is not in view when the panel opens');
  if (first.options.some((o) => o.bounds.bottom >= panel.state.view.scroll.bottom))
    throw structure('spec panel: more first-dimension options than fit in view (not profiled)');
  const colours = first.options.map((o) => ({ text: o.text, enabled: o.enabled }));
  const readings = new Map<string, Reading>();
  let laterValues: string[][] | null = names.length === 1 ? [] : null;
  let perSku = names.length === 1;
  let revealedPanel = -1;

  const record = (values: string[], r: Reading) => {
    if (!readings.has(rowKey(values))) readings.set(rowKey(values), r);
  };

  /** Reads the price at the current selection; a range splits on the next dimension. */
  const explore = async (prefix: string[], st: PanelState): Promise<void> => {
    const k = prefix.length;
    const price = readPanelPrice(st.view.priceText);
    if (k === names.length) {
      if (st.view.count !== null && st.view.count !== '1')
        throw structure(`spec panel: quantity reads ${st.view.count}, expected 1 while collecting`);
      if (price.kind === 'range') throw structure(`spec panel: a complete selection shows a range ${price.raw}`);
      record(prefix, {
        price_cent: price.kind === 'single' ? price.cent : null,
        list_price_cent: readListPrice(st.view.listPriceText),
        raw_price: price.raw || null,
        available: true,
        observed: prefix,
      });
      return;
    }
    if (price.kind !== 'range') {
      for (const rest of completions(st, k)) {
        const available = rest.every((o) => o.enabled);
        const priced = available && price.kind === 'single';
        record([...prefix, ...rest.map((o) => o.text)], {
          price_cent: priced ? price.cent : null,
          list_price_cent: null,
          raw_price: priced ? price.raw : null,
          available,
          observed: priced ? prefix : [],
        });
      }
      return;
    }
    perSku = true;
    const section = st.sections[k];
    if (!section) throw structure(`spec panel: ${names[k]} is not in view`);
    const options = section.options.map((o) => ({ text: o.text, enabled: o.enabled }));
    for (const o of options) {
      if (!o.enabled) {
        for (const rest of completions(st, k + 1))
          record([...prefix, o.text, ...rest.map((r) => r.text)], unavailable());
        continue;
      }
      await clearAfter(panel, k);
      const next = await session.selectOption(panel, k, o.text, [
        ...prefix,
        o.text,
        ...names.slice(k + 1).map(() => null),
      ]);
      await explore([...prefix, o.text], next);
    }
  };

  /** Deselects every dimension after `k`, deepest first (one tap, one proving dump each). */
  const clearAfter = async (p: OpenPanel, k: number): Promise<void> => {
    for (let d = names.length - 1; d > k; d--) {
      const v = p.state.selection[d];
      if (v === null || v === undefined) continue;
      await session.selectOption(
        p,
        d,
        v,
        p.state.selection.map((s, i) => (i === d ? null : s)),
      );
    }
  };

  for (const colour of colours) {
    if (!colour.enabled) continue;
    const colourOnly = [colour.text, ...names.slice(1).map(() => null)];
    let st: PanelState;
    if (names.length === 1) {
      st = await session.selectOption(panel, 0, colour.text, colourOnly);
    } else {
      const inView = revealedPanel === panel.serial ? optionIn(panel.state, 0, colour.text) : null;
      if (revealedPanel === panel.serial && (!inView || !tappable(inView))) {
        // Scrolled past this colour: the reveal is once per panel, so close and reopen.
        const again = await session.back(true);
        if (!again) throw new DeviceError('UNEXPECTED_SCREEN', 'the goods page did not come back');
        panel = await session.openSpecPanel(again);
      } else {
        await clearAfter(panel, 0);
      }
      st = await session.selectOption(panel, 0, colour.text, colourOnly);
      if (revealedPanel !== panel.serial) {
        st = await session.revealSizes(panel, colour.text);
        revealedPanel = panel.serial;
      }
      const values = names.slice(1).map((_, i) => st.sections[i + 1]?.options.map((o) => o.text) ?? []);
      if (laterValues === null) laterValues = values;
      else if (JSON.stringify(values) !== JSON.stringify(laterValues))
        throw structure(`spec panel: the options of ${names.slice(1).join('/')} differ between colours`);
    }
    await explore([colour.text], st);
  }
  await session.back(false);

  const keys = dimensionKeys(names);
  const skus: CollectedSku[] = [];
  if (laterValues !== null) {
    for (const values of cartesian([colours.map((c) => c.text), ...laterValues])) {
      const r = readings.get(rowKey(values)) ?? unavailable();
      const row = {
        options: Object.fromEntries(values.map((v, d) => [keys[d] as string, v])),
        price_cent: r.price_cent,
        list_price_cent: r.list_price_cent,
        raw_price: r.raw_price,
        available: r.available,
        price_observed_at: Object.fromEntries(r.observed.map((v, d) => [keys[d] as string, v])),
      };
      skus.push({ ...row, price_inferred: isInferredPrice(row) });
    }
  }
  return {
    schema_version: 1,
    goods_id: goodsId,
    title: goods.title,
    shop_name: goods.shopName,
    price_granularity: perSku ? 'sku' : 'color',
    captured_at: nowUtc(),
    dimensions: names.map((name, d) => ({ key: keys[d] as string, name })),
    skus,
    metrics: { sales_text: goods.salesText },
  };
}

function unavailable(): Reading {
  return { price_cent: null, list_price_cent: null, raw_price: null, available: false, observed: [] };
}

/** Every combination of the options of dimensions k.. as shown in `st` (with their enabled flags). */
function completions(st: PanelState, k: number): { text: string; enabled: boolean }[][] {
  const lists = st.sections.slice(k).map((s, i) => {
    if (!s) throw structure(`spec panel: dimension ${k + i} is not in view`);
    return s.options.map((o) => ({ text: o.text, enabled: o.enabled }));
  });
  return cartesian(lists);
}

function cartesian<T>(lists: readonly (readonly T[])[]): T[][] {
  return lists.reduce<T[][]>((acc, list) => acc.flatMap((prefix) => list.map((v) => [...prefix, v])), [[]]);
}
