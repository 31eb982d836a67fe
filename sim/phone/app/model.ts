import type { Catalog, Goods } from '../catalog/schema';
import type { Faults } from '../faults';
import { parseAppUrl } from './app-url';
import { genericIds } from './hostile/generic-ids';
import type { OverlayBook, OverlayLayer } from './hostile/overlays';
import { builtinPageTree } from './hostile/pages';
import type { BuiltinPage, OverlayAction } from './hostile/schema';
import { HostileWorld, isSticky } from './hostile/world';
import type { Page } from './page';
import { clipTree, hitTest, node, type TapAction, type UiNode } from './node';
import { fixedSku, isComplete, makePricing, maxQuantity, skuKey, type PriceOverride } from './pricing';
import { renderXml } from './render-xml';
import { captchaScreen, homeScreen, launcherScreen, loadingScreen, toastNode } from './screens/common';
import { cashierScreen, paymentHandoffScreen } from './screens/cashier';
import { delistedScreen, goodsScreen } from './screens/goods';
import { ordersMaxScroll, ordersScreen, type OrderView } from './screens/orders';
import { panelScreen, PANEL_VIEWPORT } from './screens/panel';

export interface Order {
  order_no: string;
  goods_id: string;
  options: string[];
  quantity: number;
  total_cent: number;
  placed_at: string;
  status: 'unpaid' | 'payment_started';
  title: string;
  shop_name: string;
}

export interface AppEnv {
  catalog(): Catalog;
  faults(): Faults;
  now(): number;
  random(): number;
  /** How long the screen keeps showing the loading state after a navigation (0 with `zero`). */
  settleMs(): number;
  /**
   * `realistic`: loading is a time (the settle) that a dump waits out, as uiautomator waits for
   * the app to be idle; `zero` has no time, so a count of loading dumps stands for it.
   */
  loadingIsTimed(): boolean;
}

export interface TapResult {
  deepest: UiNode | null;
  target: UiNode | null;
  screen: string;
  /** The overlay the tap landed in (id or template name) and what its node there does. */
  overlay: string | null;
  overlay_action: OverlayAction | null;
}

const APP_PKG = 'com.xunmeng.pinduoduo';

export class PddApp {
  stack: Page[] = [{ kind: 'launcher' }];
  readonly orders: Order[] = [];
  private toast: { text: string; pkg: string } | null = null;
  private loadingDumpsLeft = 0;
  private settleUntil = 0;
  private navSerial = 0;
  private lastDumpNav = 0;
  private lastDumpTree: UiNode | null = null;
  private orderSeq = 0;
  readonly priceOverrides = new Map<string, PriceOverride>();
  private priceChangeApplied = false;
  /** Overlays, built-in pages and the moments they strike at (sim/phone/SCREENS.md "The hostile world"). */
  readonly world: HostileWorld = new HostileWorld(this);

  constructor(private readonly env: AppEnv) {}

  get overlays(): OverlayBook {
    return this.world.overlays;
  }

  faults(): Faults {
    return this.env.faults();
  }

  reset(): void {
    this.stack = [{ kind: 'launcher' }];
    this.orders.length = 0;
    this.toast = null;
    this.loadingDumpsLeft = 0;
    this.settleUntil = 0;
    this.lastDumpTree = null;
    this.world.reset();
    this.resetFaultState();
  }

  resetFaultState(): void {
    this.priceOverrides.clear();
    this.priceChangeApplied = false;
    this.world.resetFaults();
  }

  top(): Page {
    const p = this.stack[this.stack.length - 1];
    return p ?? { kind: 'launcher' };
  }

  goods(id: string): Goods | undefined {
    return this.env.catalog().goods.find((g) => g.goods_id === id);
  }

  isLoading(): boolean {
    return this.top().kind === 'hang' || this.loadingDumpsLeft > 0 || this.env.now() < this.settleUntil;
  }

  screenName(): string {
    if (this.isLoading()) return 'loading';
    const p = this.top();
    switch (p.kind) {
      case 'goods': {
        const g = this.goods(p.goodsId);
        return g && g.status === 'on_sale' ? 'goods_detail' : 'goods_delisted';
      }
      case 'panel':
        return 'sku_panel';
      case 'payment':
        return 'payment_handoff';
      case 'builtin':
        return p.name;
      default:
        return p.kind;
    }
  }

  private buildPage(p: Page): UiNode {
    switch (p.kind) {
      case 'launcher':
        return launcherScreen();
      case 'home':
        return homeScreen();
      case 'hang':
        return loadingScreen();
      case 'captcha':
        return captchaScreen(p.challenge);
      case 'builtin':
        return builtinPageTree(p.name, p.title, p.challenge);
      case 'cashier':
        return cashierScreen(p.totalCent);
      case 'payment':
        return paymentHandoffScreen(p.totalCent);
      case 'orders':
        return ordersScreen(this.orders as OrderView[], p.type, p.scroll);
      case 'goods': {
        const g = this.goods(p.goodsId);
        if (!g) return delistedScreen('商品不存在');
        if (g.status !== 'on_sale' || g.skus.length === 0) return delistedScreen(g.title);
        return goodsScreen(g, makePricing(g.goods_id, this.priceOverrides));
      }
      case 'panel': {
        const g = this.goods(p.goodsId);
        if (!g) return delistedScreen('商品不存在');
        return panelScreen(
          g,
          p,
          makePricing(g.goods_id, this.priceOverrides),
          this.env.faults().duplicate_submit_control === true,
        );
      }
    }
  }

  /** The tree a phone would show right now (no staleness): what taps and screencap see. */
  visibleTree(): UiNode {
    const loading = this.isLoading();
    const page = loading ? loadingScreen() : this.buildPage(this.top());
    // Overlays are in-app dialogs: a subtree after the page's nodes, drawn above them.
    const children = [...page.children, ...this.overlayLayers().map((l) => l.tree)];
    if (this.toast && !loading) children.push(toastNode(this.toast.text, this.toast.pkg));
    const root = this.styled({ ...page, children: children.map((c, index) => ({ ...c, index })) });
    return clipTree(root) ?? node('Frame', [0, 0, 1080, 2376]);
  }

  /** Labels of the overlays drawn right now (for the control API). */
  visibleOverlays(): string[] {
    return this.overlayLayers().map((l) => l.label);
  }

  /** The focused activity, as `dumpsys window` names it (sim/phone/SCREENS.md "Activities"). */
  activity(): string {
    const p = this.top();
    if (p.kind === 'launcher') return 'com.android.launcher3/.Launcher';
    if (p.kind === 'payment') return 'com.eg.android.AlipayGphone/com.alipay.mobile.quinox.LauncherActivity';
    if (p.kind === 'home') return `${APP_PKG}/.ui.activity.HomeActivity`;
    if (p.kind === 'builtin' && p.name === 'login') return `${APP_PKG}/.login.LoginActivity`;
    const masks = new Set(['order_success', 'limited_deal_mask']);
    if (this.visibleOverlays().some((o) => masks.has(o))) return `${APP_PKG}/.activity.NewPageMaskActivity`;
    return `${APP_PKG}/.activity.NewPageActivity`;
  }

  private styled(n: UiNode): UiNode {
    return this.env.faults().id_style === 'generic' ? genericIds(n) : n;
  }

  private overlayLayers(): OverlayLayer[] {
    if (this.isLoading()) return [];
    return this.overlays.layers(this.top()).map((l) => ({ ...l, tree: this.styled(l.tree) }));
  }

  currentXml(): string {
    return renderXml(this.visibleTree());
  }

  /** One `uiautomator dump`: may be stale, consumes a loading dump, may trigger a price change. */
  dump(): string {
    return renderXml(this.dumpTree());
  }

  /** The tree one read of the screen sees (a dump or the agent's source), with the dump's effects. */
  dumpTree(): UiNode {
    const faults = this.env.faults();
    if (this.navSerial !== this.lastDumpNav && this.lastDumpTree !== null) {
      const rate = faults.stale_dump_rate ?? 0;
      this.lastDumpNav = this.navSerial;
      if (rate > 0 && this.env.random() < rate) return this.lastDumpTree;
    }
    this.lastDumpNav = this.navSerial;
    if (!this.isLoading()) this.world.strike();
    const tree = this.visibleTree();
    const loading = this.isLoading();
    if (this.loadingDumpsLeft > 0) this.loadingDumpsLeft -= 1;
    this.lastDumpTree = tree;
    if (!loading) this.afterDumpPriceChange();
    return tree;
  }

  private afterDumpPriceChange(): void {
    const pc = this.env.faults().price_change;
    const p = this.top();
    if (!pc || this.priceChangeApplied || p.kind !== 'panel' || p.goodsId !== pc.goods_id || !isComplete(p.sel)) return;
    p.fullDumps += 1;
    const threshold = pc.after_full_dumps ?? (pc.after === 'gate1' ? 1 : 2);
    if (p.fullDumps < threshold) return;
    const g = this.goods(p.goodsId);
    const sku = g && fixedSku(g, p.sel);
    if (!sku) return;
    this.priceOverrides.set(skuKey(p.goodsId, sku.options), {
      price_cent: pc.price_cent,
      ...(pc.tier_totals_cent ? { tier_totals_cent: pc.tier_totals_cent } : {}),
    });
    this.priceChangeApplied = true;
  }

  navigate(mutate: () => void, loadingDumps = 0): void {
    mutate();
    this.navSerial += 1;
    this.toast = null;
    this.loadingDumpsLeft = loadingDumps;
    this.settleUntil = this.env.now() + this.env.settleMs();
  }

  defaultLoadingDumps(): number {
    return this.env.faults().loading_dumps ?? (this.env.loadingIsTimed() ? 0 : 1);
  }

  /** How long until the page on screen has settled (its loading state gone), in ms; 0 when it has. */
  msUntilSettled(): number {
    return Math.max(0, this.settleUntil - this.env.now());
  }

  startUrl(url: string): boolean {
    const target = parseAppUrl(url);
    if (!target) return false;
    const page: Page =
      target.kind === 'goods'
        ? { kind: 'goods', goodsId: target.goodsId }
        : { kind: 'orders', type: target.type, scroll: 'top' };
    if (this.world.showBlocking(page)) return true;
    const faults = this.env.faults();
    this.navigate(() => {
      if (target.kind === 'goods') {
        // The network error page goes away when the goods link is opened again.
        this.stack = this.stack.filter((p) => !(p.kind === 'builtin' && p.name === 'network_error'));
        this.stack.push(faults.captcha_on === 'open' ? this.world.captcha(page) : page);
      } else {
        this.stack.push(page);
      }
    }, this.defaultLoadingDumps());
    return true;
  }

  forceStop(pkg: string): void {
    if (pkg !== APP_PKG) return;
    this.navigate(() => {
      this.stack = [{ kind: 'launcher' }];
    });
  }

  back(): void {
    const p = this.top();
    if (p.kind === 'launcher' || isSticky(p)) return;
    this.navigate(() => {
      this.stack.pop();
      if (p.kind === 'cashier') this.stack.push({ kind: 'orders', type: 1, scroll: 'top' });
      if (this.stack.length === 0) this.stack.push({ kind: 'launcher' });
    });
  }

  tap(x: number, y: number): TapResult {
    const screen = this.screenName();
    const hit = this.overlays.hit(this.overlayLayers(), x, y);
    if (hit) {
      this.toast = null;
      this.performOverlay(hit.layer, hit.action);
      return {
        deepest: hit.deepest,
        target: hit.target,
        screen,
        overlay: hit.layer.label,
        overlay_action: hit.action,
      };
    }
    const tree = this.visibleTree();
    const { deepest, clickable } = hitTest(tree, x, y);
    if (this.toast) this.toast = null;
    if (clickable && clickable.enabled && clickable.action && !this.isLoading()) this.perform(clickable.action);
    return { deepest, target: clickable, screen, overlay: null, overlay_action: null };
  }

  private performOverlay(layer: OverlayLayer, action: OverlayAction): void {
    if (action === 'none') return;
    this.overlays.takeDown(layer.state);
    if (action === 'dismiss') return;
    const to = action.slice('navigate:'.length);
    this.navigate(() =>
      this.stack.push(to === 'home' ? { kind: 'home' } : this.world.builtin(to as BuiltinPage, '', false)),
    );
  }

  swipe(x1: number, y1: number, x2: number, y2: number): void {
    // A swipe that starts on an overlay is the overlay's; the page beneath does not scroll.
    if (this.isLoading() || this.overlays.hit(this.overlayLayers(), x1, y1)) return;
    if (this.world.slide(x1, y1, x2, y2) || Math.abs(y1 - y2) < 100) return;
    const p = this.top();
    const dir = y1 > y2 ? 'end' : 'top';
    if (p.kind === 'panel') {
      const [l, t, r, b] = PANEL_VIEWPORT;
      if (x1 >= l && x1 < r && y1 >= t && y1 < b) p.scroll = dir;
    } else if (p.kind === 'orders') {
      if (y1 >= 336 && ordersMaxScroll(this.orders.length) > 0) p.scroll = dir;
    }
  }

  private perform(a: TapAction): void {
    const p = this.top();
    switch (a.kind) {
      case 'none':
        return;
      case 'back':
        return this.back();
      case 'open_home':
        if (this.world.showBlocking({ kind: 'home' })) return;
        return this.navigate(() => this.stack.push({ kind: 'home' }));
      case 'open_panel': {
        if (p.kind !== 'goods') return;
        const g = this.goods(p.goodsId);
        const captcha = this.env.faults().captcha_on === 'panel';
        const panel: Page = {
          kind: 'panel',
          goodsId: p.goodsId,
          sel: (g?.dimensions ?? []).map(() => null),
          qty: 1,
          scroll: 'top',
          fullDumps: 0,
        };
        return this.navigate(() => this.stack.push(captcha ? this.world.captcha(panel) : panel));
      }
      case 'select_option': {
        if (p.kind !== 'panel') return;
        const g = this.goods(p.goodsId);
        p.sel[a.dim] = p.sel[a.dim] === a.value ? null : a.value;
        if (g) p.qty = Math.min(p.qty, maxQuantity(g, p.sel));
        return;
      }
      case 'qty': {
        if (p.kind !== 'panel') return;
        const g = this.goods(p.goodsId);
        const max = g ? maxQuantity(g, p.sel) : 1;
        p.qty = Math.max(1, Math.min(max, p.qty + a.delta));
        return;
      }
      case 'submit':
        return this.submit(p);
      case 'challenge':
        return this.world.answer(a.step);
      case 'pay': {
        if (p.kind !== 'cashier' && p.kind !== 'payment') return;
        const o = this.orders.find((x) => x.order_no === p.orderNo);
        if (o) o.status = 'payment_started';
        return;
      }
      case 'order_tab': {
        if (p.kind === 'orders') {
          p.type = a.type;
          p.scroll = 'top';
        }
        return;
      }
    }
  }

  /** `input text`: into the focused field of the page on screen. */
  typeText(text: string): void {
    if (!this.isLoading()) this.world.type(text);
  }

  resubmit(panel: Page): void {
    this.submit(panel, true);
  }

  /** `passed`: a captcha at 提交订单 was solved, so the submission is not challenged again. */
  private submit(p: Page, passed = false): void {
    if (p.kind !== 'panel') return;
    const g = this.goods(p.goodsId);
    if (!g) return;
    const sku = fixedSku(g, p.sel);
    if (!sku || !isComplete(p.sel)) {
      const missing = g.dimensions
        .filter((_, d) => p.sel[d] === null)
        .map((d) => d.name)
        .join(' ');
      this.toast = { text: `请选择 ${missing || '规格'}`, pkg: APP_PKG };
      return;
    }
    const faults = this.env.faults();
    const asked = faults.captcha_on === 'submit' && !passed ? 'captcha' : (faults.submit_outcome ?? 'created');
    const outcome = passed && asked === 'captcha' ? 'created' : asked;
    if (outcome === 'not_created') {
      this.toast = { text: '当前购买人数过多，请稍后再试', pkg: APP_PKG };
      this.world.submitPage = p;
      return;
    }
    const total = makePricing(g.goods_id, this.priceOverrides).total(sku, p.qty);
    let order: Order | null = null;
    if (outcome !== 'captcha') {
      order = {
        order_no: this.nextOrderNo(),
        goods_id: g.goods_id,
        options: [...p.sel],
        quantity: p.qty,
        total_cent: total,
        placed_at: new Date(this.env.now()).toISOString(),
        status: 'unpaid',
        title: g.title,
        shop_name: g.shop_name,
      };
      this.orders.push(order);
    }
    const orderNo = order?.order_no ?? '';
    this.navigate(() => {
      this.stack.pop();
      this.world.submitPage = null;
      switch (outcome) {
        case 'created':
          this.stack.push({ kind: 'cashier', orderNo, totalCent: total });
          break;
        case 'created_then_hang':
          this.stack.push({ kind: 'hang' });
          break;
        case 'payment_handoff':
          this.stack.push({ kind: 'payment', orderNo, totalCent: total });
          break;
        case 'captcha':
          this.stack.push(this.world.captcha(p, true));
          break;
      }
      this.world.submitPage = this.top();
    }, this.defaultLoadingDumps());
  }

  private nextOrderNo(): string {
    this.orderSeq += 1;
    const d = new Date(this.env.now() + 8 * 3600_000).toISOString();
    const ymd = d.slice(2, 4) + d.slice(5, 7) + d.slice(8, 10);
    let digits = '';
    for (let i = 0; i < 11; i++) digits += Math.floor(this.env.random() * 10);
    return `${ymd}-${digits}${String(this.orderSeq).padStart(4, '0')}`;
  }
}
