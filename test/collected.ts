import { randomUUID } from 'node:crypto';
import { catalogActivities } from '../activities/admin/catalog';
import type { AdminDb } from '../admin/db/database';
import { MEASURED_ROWS_MAX } from '../device-worker/pdd/collect/walk';
import { dimensionKeys } from '../device-worker/pdd/dimension-keys';
import { readListPrice, readPanelPrice } from '../device-worker/pdd/price';
import { collectWorkflowId } from '../domain/catalog';
import { isInferredPrice, type CollectedSku, type SkusJson } from '../domain/collect';
import { canonicalPddGoodsUrl } from '../domain/pdd-url';
import { nowUtc } from '../domain/time';
import { defaultCatalog, type Catalog, type Goods } from '../sim/phone';
import { fixedSku, makePricing, optionEnabled, topPriceText, type Selection } from '../sim/phone/app/pricing';
import { formatYuan } from '../sim/phone/money';

/**
 * A purchase draft needs a goods a phone collected (admin/purchase/options.ts refuses one never
 * collected, NOT_COLLECTED). Tests about something else draft on simulator goods without running
 * a phone's collect each time: `collectedInTestDb` stores what that collect would have stored,
 * through the collect's own write (`saveCollectResult`, activities/admin/catalog.ts), and
 * `collectOf` works out what a phone's collect (device-worker/pdd/collect.ts) reads from the
 * simulator's catalog. test/device/collect.test.ts proves the two equal for every default goods.
 */

interface Reading {
  price_cent: number | null;
  list_price_cent: number | null;
  raw_price: string | null;
  available: boolean;
  observed: string[];
}

const UNAVAILABLE: Reading = {
  price_cent: null,
  list_price_cent: null,
  raw_price: null,
  available: false,
  observed: [],
};
/** the simulator's goods page shows one sales figure for every goods (sim/phone/app/screens/goods.ts) */
const SIM_SALES_TEXT = '已拼10万+件';

function cartesian<T>(lists: readonly (readonly T[])[]): T[][] {
  return lists.reduce<T[][]>((acc, list) => acc.flatMap((prefix) => list.map((v) => [...prefix, v])), [[]]);
}

/**
 * What the phone's collect of `goods` stores, walked as the collect walks the spec panel: each
 * colour selected and its price read, then split on the next dimension row by row — always for a
 * range, for a single price while `measuredRowsMax` allows (past it the colour's price is carried
 * over, 推测价格). Prices are read through the phone's own parsers from the text the simulator's
 * panel would show.
 */
export function collectOf(goods: Goods, capturedAt: string = nowUtc(), measuredRowsMax = MEASURED_ROWS_MAX): SkusJson {
  if (goods.status !== 'on_sale') throw new Error(`goods ${goods.goods_id} is delisted: its collect fails`);
  const pricing = makePricing(goods.goods_id, new Map());
  const names = goods.dimensions.map((d) => d.name);
  const shown = (sel: Selection, d: number) =>
    goods.dimensions[d]!.values.map((text) => ({ text, enabled: optionEnabled(goods, sel, d, text) }));
  const readings = new Map<string, Reading>();
  const record = (values: string[], r: Reading) => {
    if (!readings.has(values.join('\u0000'))) readings.set(values.join('\u0000'), r);
  };
  let perSku = names.length === 1;
  let measured = 0;

  const explore = (prefix: string[]): void => {
    const k = prefix.length;
    const sel: Selection = [...prefix, ...names.slice(k).map(() => null)];
    const price = readPanelPrice(topPriceText(goods, sel, 1, pricing));
    if (k === names.length) {
      const list = fixedSku(goods, sel)?.list_price_cent;
      const cent = price.kind === 'single' ? price.cent : null;
      const listCent = readListPrice(list === undefined ? null : formatYuan(list));
      record(prefix, {
        price_cent: cent,
        list_price_cent: listCent,
        raw_price: price.raw || null,
        available: true,
        observed: prefix,
      });
      measured++;
      return;
    }
    const completions = (from: number) => cartesian(names.slice(from).map((_, i) => shown(sel, from + i)));
    const rows = completions(k).filter((rest) => rest.every((o) => o.enabled)).length;
    const split = price.kind === 'range' || (price.kind === 'single' && measured + rows <= measuredRowsMax);
    if (!split) {
      for (const rest of completions(k)) {
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
    if (price.kind === 'range') perSku = true;
    for (const o of shown(sel, k)) {
      if (o.enabled) explore([...prefix, o.text]);
      else for (const rest of completions(k + 1)) record([...prefix, o.text, ...rest.map((r) => r.text)], UNAVAILABLE);
    }
  };

  const colours = shown(
    names.map(() => null),
    0,
  );
  for (const colour of colours) if (colour.enabled) explore([colour.text]);
  const keys = dimensionKeys(names);
  const keyed = (values: readonly string[]) => Object.fromEntries(values.map((v, d) => [keys[d] as string, v]));
  // with no colour to select, a later dimension is never read: zero rows, a failed collect
  const later =
    names.length === 1 || colours.some((c) => c.enabled) ? goods.dimensions.slice(1).map((d) => d.values) : null;
  const skus: CollectedSku[] = (later ? cartesian([colours.map((c) => c.text), ...later]) : []).map((values) => {
    const r = readings.get(values.join('\u0000')) ?? UNAVAILABLE;
    const row = {
      options: keyed(values),
      price_cent: r.price_cent,
      list_price_cent: r.list_price_cent,
      raw_price: r.raw_price,
      available: r.available,
      price_observed_at: keyed(r.observed),
    };
    return { ...row, price_inferred: isInferredPrice(row) };
  });
  return {
    schema_version: 1,
    goods_id: goods.goods_id,
    title: goods.title,
    shop_name: goods.shop_name,
    price_granularity: perSku ? 'sku' : 'color',
    captured_at: capturedAt,
    dimensions: names.map((name, d) => ({ key: keys[d] as string, name })),
    skus,
    metrics: { sales_text: SIM_SALES_TEXT },
  };
}

export interface CollectedOptions {
  /** the phone's catalog (default: the simulator's default catalog) */
  catalog?: Catalog;
  /**
   * the goods as the phone showed it when it was collected, for a test about a goods that changed
   * since (sold out, delisted, an option renamed): the phone then finds it as the catalog says
   */
  asCollected?: (goods: Goods) => Goods;
  /** a goods id the catalog lacks, shown by the phone as this catalog goods is (many goods in one test) */
  copyOf?: string;
  deviceId?: string;
}

/**
 * TEST CODE ONLY: stores in the admin DB what a phone's collect of `goodsId` would store — the
 * PDD goods row a pasted link makes, if missing, then the collect's result through its own
 * write. A goods already holding the same result is left as it is (no second collect run).
 */
export async function collectedInTestDb(db: AdminDb, goodsId: string, opts: CollectedOptions = {}): Promise<SkusJson> {
  const source = opts.copyOf ?? goodsId;
  const found = (opts.catalog ?? defaultCatalog()).goods.find((g) => g.goods_id === source);
  if (!found) throw new Error(`goods ${source} is not in the phone's catalog`);
  const goods = { ...found, goods_id: goodsId };
  const result = collectOf(opts.asCollected ? opts.asCollected(goods) : goods);
  const now = nowUtc();
  await db
    .insertInto('pdd_products')
    .values({
      goods_id: goodsId,
      url: canonicalPddGoodsUrl(goodsId),
      collect_status: 'pending',
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.column('goods_id').doNothing())
    .execute();
  const stored = await db
    .selectFrom('pdd_products')
    .select(['skus_json', 'collect_status', 'deleted_at'])
    .where('goods_id', '=', goodsId)
    .executeTakeFirstOrThrow();
  if (stored.deleted_at !== null) throw new Error(`PDD goods ${goodsId} is deleted: link it again first`);
  const sameAs = (json: string | null) =>
    json !== null &&
    JSON.stringify({ ...(JSON.parse(json) as SkusJson), captured_at: '' }) ===
      JSON.stringify({ ...result, captured_at: '' });
  if (stored.collect_status === 'collected' && sameAs(stored.skus_json))
    return JSON.parse(stored.skus_json!) as SkusJson;
  const runId = `test-${randomUUID()}`;
  await catalogActivities(db, { runId: () => runId }).saveCollectResult({
    pddGoodsId: goodsId,
    workflowId: collectWorkflowId(goodsId),
    deviceId: opts.deviceId ?? 'test-collect',
    result,
  });
  return result;
}
