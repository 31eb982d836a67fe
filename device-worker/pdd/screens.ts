import { DeviceError } from '../errors';
import type { PddProfile } from './profile';
import { allById, expectNode, optionalById, structure, uniqueById } from './match';
import { centre, contains, type UiDump, type UiNode } from './ui-xml';
import { readPanel, type PanelView } from './panel-view';

interface TapPoint {
  x: number;
  y: number;
  /** what the point hits, for the step log */
  label: string;
}

export interface GoodsView {
  title: string;
  shopName: string | null;
  /** the sales figure as shown; null when the page shows none (it never blocks a collect) */
  salesText: string | null;
  /** the profiled spec-panel entry: the centre of the first text row of the bottom buy area */
  entry: TapPoint;
}

export type Screen =
  | { kind: 'loading' }
  | { kind: 'goods_detail'; goods: GoodsView }
  | { kind: 'goods_delisted'; title: string }
  | { kind: 'sku_panel'; panel: PanelView }
  | { kind: 'captcha' }
  | { kind: 'cashier' }
  | { kind: 'orders' }
  | { kind: 'home' }
  | { kind: 'launcher' }
  | { kind: 'payment_handoff' }
  | { kind: 'unknown'; reason: string };

type Kind = Screen['kind'];

/** Which screen a dump shows: exactly one signature must match, else the dump is ambiguous. */
export function classify(dump: UiDump, p: PddProfile): Screen {
  const has = (id: string) => allById(dump.nodes, id).length > 0;
  const rootPkg = dump.root.packageName;
  const signatures: [Kind, boolean][] = [
    ['loading', has(p.id.loadingView)],
    ['goods_detail', has(p.id.bottomBuy)],
    ['goods_delisted', has(p.id.goodsOffline)],
    ['sku_panel', has(p.id.skuPanel)],
    ['captcha', has(p.id.captchaTitle)],
    ['cashier', has(p.id.cashierPanel)],
    ['orders', has(p.id.orderTabs)],
    ['home', has(p.id.searchHint)],
    ['launcher', rootPkg === p.launcherPkg],
    ['payment_handoff', rootPkg === p.alipayPkg],
  ];
  const matched = signatures.filter(([, hit]) => hit).map(([k]) => k);
  if (matched.length === 0)
    return {
      kind: 'unknown',
      reason: `no profiled screen of PDD ${p.appVersion} matches (root package ${rootPkg || 'none'})`,
    };
  if (matched.length > 1) throw structure(`the dump matches several screens at once: ${matched.join(', ')}`);
  const kind = matched[0] as Kind;
  switch (kind) {
    case 'loading':
      return readLoading(dump, p);
    case 'goods_detail':
      return { kind, goods: readGoods(dump, p) };
    case 'goods_delisted':
      return readDelisted(dump, p);
    case 'sku_panel':
      return { kind, panel: readPanel(dump, p) };
    case 'captcha': {
      const t = uniqueById(dump.nodes, p.id.captchaTitle, 'captcha');
      return t.text === p.text.captchaTitle
        ? { kind }
        : { kind: 'unknown', reason: `captcha title ${JSON.stringify(t.text)}` };
    }
    default:
      return { kind } as Screen;
  }
}

function readLoading(dump: UiDump, p: PddProfile): Screen {
  uniqueById(dump.nodes, p.id.loadingView, 'loading');
  const text = optionalById(dump.nodes, p.id.loadingText, 'loading');
  if (text && text.text !== p.text.loading)
    return { kind: 'unknown', reason: `loading text ${JSON.stringify(text.text)}` };
  return { kind: 'loading' };
}

function readDelisted(dump: UiDump, p: PddProfile): Screen {
  const offline = uniqueById(dump.nodes, p.id.goodsOffline, 'delisted goods');
  if (offline.text !== p.text.offline)
    return { kind: 'unknown', reason: `offline text ${JSON.stringify(offline.text)}` };
  const title = optionalById(dump.nodes, p.id.goodsTitle, 'delisted goods');
  return { kind: 'goods_delisted', title: title?.text ?? '' };
}

function isPddTextLeaf(n: UiNode, p: PddProfile): boolean {
  return n.className === p.cls.textView && n.packageName === p.pkg && n.children.length === 0;
}

/**
 * The goods page and its spec-panel entry (受控规格面板入口): a non-clickable text
 * leaf `快要抢光 ¥…` as the first row of the bottom buy area, whose direct parent is the
 * clickable PDD container inside the bottom bar, with the non-clickable `免拼购买` sibling
 * below it. Anything else — a clickable sibling, a third child, the promo text of the content
 * area, a drifted position — is structure drift and nothing is tapped.
 */
function readGoods(dump: UiDump, p: PddProfile): GoodsView {
  const where = 'goods page';
  uniqueById(dump.nodes, p.id.goodsList, where);
  const title = uniqueById(dump.nodes, p.id.goodsTitle, where);
  expectNode(isPddTextLeaf(title, p) && title.text.length > 0, `${where}: the title is not a non-empty text leaf`);
  const mall = optionalById(dump.nodes, p.id.mallName, where);
  const shopName = mall && isPddTextLeaf(mall, p) && mall.text.length > 0 ? mall.text : null;
  const sales = optionalById(dump.nodes, p.id.goodsSales, where);
  const salesText = sales && isPddTextLeaf(sales, p) && sales.text.length > 0 ? sales.text : null;

  const bar = uniqueById(dump.nodes, p.id.bottomBar, where);
  const buy = uniqueById(dump.nodes, p.id.bottomBuy, where);
  expectNode(buy.parent === bar, `${where}: ${p.id.bottomBuy} is not a direct child of ${p.id.bottomBar}`);
  expectNode(
    buy.className === p.cls.linearLayout && buy.packageName === p.pkg && buy.clickable && buy.enabled,
    `${where}: the buy area is not an enabled clickable PDD container`,
  );
  const [first, second, ...rest] = buy.children;
  expectNode(
    !!first && !!second && rest.length === 0,
    `${where}: the buy area has ${buy.children.length} children, expected 2`,
  );
  if (!first || !second) throw structure(`${where}: buy area children missing`);
  expectNode(
    first.resourceId === p.id.bottomBuyPrice && isPddTextLeaf(first, p) && !first.clickable,
    `${where}: the first row of the buy area is not the profiled non-clickable text leaf`,
  );
  expectNode(
    entryLabelMatches(first.text, p),
    `${where}: the first row reads ${JSON.stringify(first.text)}, not "${p.text.entryLabel} ¥…"`,
  );
  expectNode(
    second.resourceId === p.id.bottomBuyDesc &&
      isPddTextLeaf(second, p) &&
      !second.clickable &&
      second.text === p.text.entrySibling,
    `${where}: the sibling below the entry is not the non-clickable "${p.text.entrySibling}"`,
  );
  expectNode(allById(dump.nodes, p.id.bottomBuyPrice).length === 1, `${where}: the entry text occurs twice`);
  expectNode(first.bounds.bottom <= second.bounds.top, `${where}: the entry is not the first row`);
  expectNode(
    contains(buy.bounds, first.bounds) && contains(bar.bounds, buy.bounds),
    `${where}: the entry lies outside the bottom bar`,
  );
  expectNode(
    bar.bounds.bottom === p.screen.height && bar.bounds.top >= p.screen.height * 0.85,
    `${where}: the bottom bar is not at the bottom of the screen`,
  );
  return {
    title: title.text,
    shopName,
    salesText,
    entry: { ...centre(first.bounds), label: `${p.id.bottomBuyPrice} "${first.text}"` },
  };
}

/** `快要抢光 ¥12.56`: the label by equality, the amount only as structure (never a price source). */
function entryLabelMatches(text: string, p: PddProfile): boolean {
  const sep = text.indexOf(' ');
  if (sep < 0) return false;
  return text.slice(0, sep) === p.text.entryLabel && /^[¥￥]\d+\.\d{2}$/.test(text.slice(sep + 1));
}

export function screenError(screen: Screen, expected: string): DeviceError {
  if (screen.kind === 'captcha')
    return new DeviceError(
      'CAPTCHA_REQUIRED',
      `PDD shows a security check (安全验证) instead of ${expected}; a person must clear it on the phone`,
    );
  if (screen.kind === 'unknown') return new DeviceError('PAGE_UNRECOGNIZED', `expected ${expected}: ${screen.reason}`);
  return new DeviceError('UNEXPECTED_SCREEN', `expected ${expected}, the phone shows ${screen.kind}`);
}
