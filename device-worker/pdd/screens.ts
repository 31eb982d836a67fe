import { DeviceError } from '../errors';
import type { PageStopCode, PddProfile } from './profile';
import { byText, expectNode, structure } from './match';
import { coveredBy, findInterstitial, findStopPage } from './overlays';
import { centre, contains, within, type UiDump, type UiNode } from './ui-xml';
import { readPanel, summaryNode, type PanelView } from './panel-view';

/** A point to tap and the node it means (the tap guard proves the point reaches that node). */
interface TapPoint {
  x: number;
  y: number;
  node: UiNode;
  /** what the point hits, for the step log */
  label: string;
}

export interface GoodsView {
  title: string;
  shopName: string | null;
  /** the sales figure as shown; null when the page shows none (it never blocks a collect) */
  salesText: string | null;
  /** the spec-panel entry: the centre of the first text row of the bottom buy area */
  entry: TapPoint;
}

export type Screen =
  | { kind: 'loading' }
  | { kind: 'goods_detail'; goods: GoodsView }
  | { kind: 'goods_delisted'; title: string }
  | { kind: 'sku_panel'; panel: PanelView }
  /** a page that stops a purchase (login, slider, risk checks, network error, …) */
  | { kind: 'stop_page'; code: PageStopCode; page: string }
  /** a profiled interstitial; `close` null when its one close control cannot be tapped */
  | { kind: 'interstitial'; name: string; close: TapPoint | null; stopCode: PageStopCode | 'UNKNOWN_OVERLAY' }
  /** something not profiled is drawn over a screen: never that screen */
  | { kind: 'overlay'; over: string; reason: string }
  | { kind: 'cashier' }
  | { kind: 'orders' }
  | { kind: 'home' }
  | { kind: 'launcher' }
  | { kind: 'payment_handoff' }
  | { kind: 'unknown'; reason: string };

type Kind = Screen['kind'];

const ENTRY_AMOUNT = /^[¥￥]\d+\.\d{2}$/;

/** `快要抢光 ¥12.56`: the label by equality, the amount only as structure (never a price source). */
function isEntryText(text: string, p: PddProfile): boolean {
  const sep = text.indexOf(' ');
  return sep > 0 && text.slice(0, sep) === p.text.entryLabel && ENTRY_AMOUNT.test(text.slice(sep + 1));
}

/**
 * Which screen a dump shows, by text, class, structure and position only. A profiled interstitial
 * or a stop page wins over what lies beneath; a screen whose signature is covered, or with
 * something drawn after its last part, is an `overlay`, never that screen. Exactly one screen
 * signature must match, else the dump is ambiguous.
 */
export function classify(dump: UiDump, p: PddProfile): Screen {
  const rootPkg = dump.root.packageName;
  if (rootPkg === p.launcherPkg) return { kind: 'launcher' };
  if (rootPkg === p.alipayPkg) return { kind: 'payment_handoff' };
  if (rootPkg !== p.pkg)
    return { kind: 'unknown', reason: `no profiled screen of PDD ${p.appVersion} (root package ${rootPkg || 'none'})` };

  const hit = findInterstitial(dump, p);
  if (hit) {
    const close = hit.close
      ? { ...centre(hit.close.bounds), node: hit.close, label: `${hit.interstitial.name} close` }
      : null;
    return { kind: 'interstitial', name: hit.interstitial.name, close, stopCode: hit.interstitial.stopCode };
  }
  const page = findStopPage(dump, p);
  if (page) return { kind: 'stop_page', code: page.code, page: page.name };

  const nodes = dump.nodes;
  const pdd = (n: UiNode) => n.packageName === p.pkg;
  const sig: Record<
    Exclude<Kind, 'stop_page' | 'interstitial' | 'overlay' | 'unknown' | 'launcher' | 'payment_handoff'>,
    UiNode[]
  > = {
    loading: nodes.some((n) => n.className === p.cls.progressBar) ? byText(nodes, p.text.loading) : [],
    goods_detail: nodes.filter((n) => pdd(n) && isEntryText(n.text, p)),
    goods_delisted: byText(nodes, p.text.offline).slice(0, 1),
    sku_panel: summaryNode(dump, p),
    cashier: byText(nodes, p.purchase.text.cashierTitle),
    orders: byText(nodes, p.text.ordersTitle),
    home: byText(nodes, p.text.homeSearch),
  };
  const matched = (Object.keys(sig) as (keyof typeof sig)[]).filter((k) => sig[k].length > 0);
  if (matched.length === 0) return { kind: 'unknown', reason: `no profiled screen of PDD ${p.appVersion} matches` };
  if (matched.length > 1) throw structure(`the dump matches several screens at once: ${matched.join(', ')}`);
  const kind = matched[0] as keyof typeof sig;
  const signature = sig[kind];
  const anchor = anchorOf(kind, signature, dump, p);
  const covered = coveredBy(dump, p, signature, anchor);
  if (covered) return { kind: 'overlay', over: kind, reason: `${kind}: ${covered}` };
  switch (kind) {
    case 'goods_detail':
      return { kind, goods: readGoods(dump, p, signature) };
    case 'goods_delisted':
      return { kind, title: delistedTitle(dump, p) };
    case 'sku_panel':
      return { kind, panel: readPanel(dump, p) };
    default:
      return { kind };
  }
}

/** The last part of a screen a person taps on: nothing but a toast may be drawn after it. */
function anchorOf(kind: string, signature: UiNode[], dump: UiDump, p: PddProfile): UiNode | null {
  const first = signature[0];
  if (!first) return null;
  if (kind === 'goods_detail') return first.parent?.parent ?? null; // the bottom bar
  if (kind === 'sku_panel') return first.parent; // the panel
  if (kind === 'orders') return dump.nodes.find((n) => n.scrollable && n.packageName === p.pkg) ?? null;
  return null;
}

function isPddTextLeaf(n: UiNode, p: PddProfile): boolean {
  return n.className === p.cls.textView && n.packageName === p.pkg && n.children.length === 0;
}

/**
 * The goods page and its spec-panel entry (受控规格面板入口): the one non-clickable text
 * leaf `快要抢光 ¥…`, the first row of a clickable PDD container at the bottom of the screen, with
 * the non-clickable `免拼购买` sibling below it. Anything else — a clickable sibling, a third
 * child, a drifted position — is structure drift and nothing is tapped. The promo `快要抢光` of
 * the content area carries no amount and is never the entry.
 */
function readGoods(dump: UiDump, p: PddProfile, entries: UiNode[]): GoodsView {
  const where = 'goods page';
  expectNode(entries.length === 1, `${where}: "${p.text.entryLabel} ¥…" occurs ${entries.length} times`);
  const first = entries[0] as UiNode;
  const buy = first.parent;
  const bar = buy?.parent;
  if (!buy || !bar) throw structure(`${where}: the entry has no container`);
  expectNode(
    buy.className === p.cls.linearLayout && buy.packageName === p.pkg && buy.clickable && buy.enabled,
    `${where}: the buy area is not an enabled clickable PDD container`,
  );
  const [top, second, ...rest] = buy.children;
  expectNode(
    top === first && !!second && rest.length === 0,
    `${where}: the buy area has ${buy.children.length} children with the entry not first, expected 2`,
  );
  if (!second) throw structure(`${where}: buy area children missing`);
  expectNode(isPddTextLeaf(first, p) && !first.clickable, `${where}: the entry row is not a non-clickable text leaf`);
  expectNode(
    isPddTextLeaf(second, p) && !second.clickable && second.text === p.text.entrySibling,
    `${where}: the sibling below the entry is not the non-clickable "${p.text.entrySibling}"`,
  );
  expectNode(first.bounds.bottom <= second.bounds.top, `${where}: the entry is not the first row`);
  expectNode(
    contains(buy.bounds, first.bounds) && contains(bar.bounds, buy.bounds),
    `${where}: the entry lies outside the bottom bar`,
  );
  expectNode(
    bar.bounds.bottom === p.screen.height && bar.bounds.top >= p.screen.height * 0.85,
    `${where}: the bottom bar is not at the bottom of the screen`,
  );

  // The content list: the one scrollable PDD node above the bar; the title is its first text row.
  const lists = dump.nodes.filter((n) => n.scrollable && n.packageName === p.pkg);
  expectNode(lists.length === 1, `${where}: ${lists.length} scrollable content lists, expected 1`);
  const list = lists[0] as UiNode;
  expectNode(list.bounds.bottom <= bar.bounds.top, `${where}: the content list reaches into the bottom bar`);
  const title = list.children.find((c) => isPddTextLeaf(c, p));
  expectNode(!!title && title.text.length > 0, `${where}: the content list has no title row`);
  const enter = byText(
    list.children.flatMap((c) => c.children),
    p.text.mallEnter,
  );
  const mallRow = enter.length === 1 ? enter[0]?.parent : null;
  const shopNode = mallRow?.children.find((c, i, all) => isPddTextLeaf(c, p) && all[i + 1] === enter[0]) ?? null;
  const sales = dump.nodes.filter(
    (n) => within(n, list) && isPddTextLeaf(n, p) && n.text.startsWith(p.text.salesPrefix),
  );
  return {
    title: (title as UiNode).text,
    shopName: shopNode && shopNode.text.length > 0 ? shopNode.text : null,
    salesText: sales.length === 1 ? (sales[0] as UiNode).text : null,
    entry: { ...centre(first.bounds), node: first, label: `entry "${first.text}"` },
  };
}

/** The delisted page's title, for the stop's details only: its first text row that is not the notice. */
function delistedTitle(dump: UiDump, p: PddProfile): string {
  const t = dump.nodes.find((n) => isPddTextLeaf(n, p) && n.text.length > 0 && n.text !== p.text.offline);
  return t?.text ?? '';
}

/** The stop a screen that is not the expected one means, before the fence. */
export function screenError(screen: Screen, expected: string): DeviceError {
  switch (screen.kind) {
    case 'stop_page':
      return new DeviceError(
        screen.code,
        `PDD shows the ${screen.page} page instead of ${expected}; a person must look`,
        {
          page: screen.page,
        },
      );
    case 'interstitial':
      return new DeviceError(
        screen.stopCode,
        `PDD shows the interstitial ${screen.name} instead of ${expected}${screen.close ? '' : ' and it cannot be closed'}`,
        { interstitial: screen.name },
      );
    case 'overlay':
      return new DeviceError('UNKNOWN_OVERLAY', `an unprofiled overlay instead of ${expected}: ${screen.reason}`);
    case 'unknown':
      return new DeviceError('PAGE_UNRECOGNIZED', `expected ${expected}: ${screen.reason}`);
    default:
      return new DeviceError('UNEXPECTED_SCREEN', `expected ${expected}, the phone shows ${screen.kind}`);
  }
}
