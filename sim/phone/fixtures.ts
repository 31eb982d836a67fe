/**
 * Every screen the phone simulator can show, rendered without ports or ADB, for fixture tests of
 * page recognition: `{name, xml, png?}` per screen, per id style. Names are
 * `<id style>/<screen>[/<detail>]`, e.g. `default/goods_detail/937122477375`,
 * `generic/overlay/red_packet`, `default/page/login` (sim/phone/SCREENS.md describes each).
 */
import { PddApp } from './app/model';
import { findNode, type UiNode } from './app/node';
import { renderPng } from './app/render-png';
import { BUILTIN_PAGES, TEMPLATE_NAMES, type IdStyle } from './app/hostile/schema';
import { defaultCatalog } from './catalog/default-catalog';
import { catalogSchema, type Catalog, type Goods } from './catalog/schema';
import type { Faults } from './faults';
import { makeRng } from './latency';

export interface Fixture {
  name: string;
  xml: string;
  png?: Buffer;
}

export interface FixtureOptions {
  /** Default: the simulator's default catalog. */
  catalog?: Catalog;
  /** Also draw each screen as `screencap -p` would (slower). */
  png?: boolean;
  styles?: IdStyle[];
  /** Keep only the fixtures whose full name passes (and draw only those). */
  only?: (name: string) => boolean;
}

const goodsUrl = (id: string): string => `https://mobile.yangkeduo.com/goods.html?goods_id=${id}`;
const ORDERS_URL = 'pinduoduo://com.xunmeng.pinduoduo/orders.html?type=1';
const FIXED_NOW = Date.UTC(2026, 7, 7, 12, 15, 3);

/** Drives one in-memory app the way a worker drives a phone, collecting screens as it goes. */
class Driver {
  faults: Faults = {};
  readonly app: PddApp;
  readonly out: Fixture[] = [];

  constructor(
    private readonly catalog: Catalog,
    private readonly style: IdStyle,
    private readonly png: boolean,
    private readonly only: (name: string) => boolean,
  ) {
    const random = makeRng(7);
    this.app = new PddApp({
      catalog: () => catalog,
      faults: () => this.faults,
      now: () => FIXED_NOW,
      random,
      settleMs: () => 0,
      loadingIsTimed: () => false,
    });
    this.setFaults({});
  }

  setFaults(f: Faults): void {
    this.faults = { loading_dumps: 0, ...f, ...(this.style === 'generic' ? { id_style: 'generic' } : {}) };
    this.app.resetFaultState();
  }

  fresh(): void {
    this.app.reset();
    this.setFaults({});
  }

  /** One dump (so moments strike), recorded under `name`. */
  take(name: string): void {
    const xml = this.app.dump();
    const fixture: Fixture = { name: `${this.style}/${name}`, xml };
    if (!this.only(fixture.name)) return;
    if (this.png) fixture.png = renderPng(this.app.visibleTree());
    this.out.push(fixture);
  }

  /** Taps the centre of the first node (on screen now) the predicate picks. */
  tap(pred: (n: UiNode) => boolean, what: string): void {
    const n = findNode(this.app.visibleTree(), pred);
    if (!n) throw new Error(`fixtures: no ${what} on ${this.app.screenName()}`);
    const [l, t, r, b] = n.bounds;
    this.app.tap(Math.floor((l + r) / 2), Math.floor((t + b) / 2));
  }

  tapText(text: string): void {
    this.tap((n) => n.text === text && n.clickable, `"${text}"`);
  }

  openPanel(g: Goods): void {
    this.app.startUrl(goodsUrl(g.goods_id));
    this.app.dump();
    this.tap((n) => n.text.startsWith('快要抢光 ¥'), 'purchase entry');
  }

  /** Picks the options of the first SKU with `minStock`, flinging the panel after the first dimension. */
  selectAll(g: Goods, minStock = 1): boolean {
    const sku = g.skus.find((s) => s.stock >= minStock);
    if (!sku) return false;
    sku.options.forEach((v, d) => {
      if (d === 1) this.app.swipe(540, 1900, 540, 1300);
      this.tapText(v);
    });
    return true;
  }
}

function screens(d: Driver, catalog: Catalog): void {
  d.take('launcher');
  d.tapText('拼多多');
  d.take('home');
  d.fresh();
  d.setFaults({ loading_dumps: 1 });
  d.app.startUrl(goodsUrl(catalog.goods[0]?.goods_id ?? '1'));
  d.take('loading');
  for (const g of catalog.goods) {
    d.fresh();
    d.app.startUrl(goodsUrl(g.goods_id));
    d.take(`${d.app.screenName()}/${g.goods_id}`);
    if (d.app.screenName() !== 'goods_detail') continue;
    d.tap((n) => n.text.startsWith('快要抢光 ¥'), 'purchase entry');
    d.take(`sku_panel/${g.goods_id}/initial`);
    if (!d.selectAll(g)) continue;
    d.take(`sku_panel/${g.goods_id}/complete`);
  }
  d.fresh();
  d.app.startUrl(goodsUrl('999999999999'));
  d.take('goods_delisted/unknown');
}

function purchaseScreens(d: Driver, g: Goods): void {
  d.fresh();
  d.openPanel(g);
  d.selectAll(g, 2);
  d.tap((n) => n.text === '+' && n.clickable, '+');
  d.take('sku_panel/quantity_2');
  d.tap((n) => n.text.startsWith('提交订单') && n.clickable === false, 'submit');
  d.take('cashier');
  d.app.startUrl(ORDERS_URL);
  d.take('orders/unpaid');
  d.fresh();
  d.app.startUrl(ORDERS_URL);
  d.take('orders/empty');
  for (const outcome of ['payment_handoff', 'captcha'] as const) {
    d.fresh();
    d.openPanel(g);
    d.selectAll(g);
    d.setFaults({ submit_outcome: outcome });
    d.tap((n) => n.text.startsWith('提交订单') && n.clickable === false, 'submit');
    d.take(outcome);
  }
}

function hostileScreens(d: Driver, g: Goods): void {
  for (const page of BUILTIN_PAGES) {
    d.fresh();
    d.setFaults({ page_on: { open: page } });
    d.app.startUrl(goodsUrl(g.goods_id));
    d.take(`page/${page}`);
  }
  for (const template of TEMPLATE_NAMES) {
    d.fresh();
    d.app.overlays.set([{ template, when: 'open', after_dumps: 0, times: 1 }]);
    d.app.startUrl(goodsUrl(g.goods_id));
    d.take(`overlay/${template}`);
  }
  // The two that strike where a wrong tap costs most: over 提交订单, and over the cashier.
  d.fresh();
  d.app.overlays.set([{ template: 'notification_prompt', when: 'final_panel', after_dumps: 0, times: 1 }]);
  d.openPanel(g);
  d.selectAll(g);
  d.take('overlay/notification_prompt/final_panel');
  d.fresh();
  d.app.overlays.set([{ template: 'order_success', when: 'after_submit', after_dumps: 0, times: 1 }]);
  d.openPanel(g);
  d.selectAll(g);
  d.tap((n) => n.text.startsWith('提交订单') && n.clickable === false, 'submit');
  d.take('overlay/order_success/after_submit');
}

export function renderFixtures(opts: FixtureOptions = {}): Fixture[] {
  const catalog = catalogSchema.parse(opts.catalog ?? defaultCatalog());
  const buyable = catalog.goods.find((g) => g.status === 'on_sale' && g.skus.some((s) => s.stock > 1));
  const out: Fixture[] = [];
  for (const style of opts.styles ?? (['default', 'generic'] as const)) {
    const d = new Driver(catalog, style, opts.png === true, opts.only ?? (() => true));
    screens(d, catalog);
    if (buyable) {
      purchaseScreens(d, buyable);
      hostileScreens(d, buyable);
    }
    out.push(...d.out);
  }
  return out;
}
