import type { Interstitial, PageSignature, PddProfile } from './profile';
import { allMatching, uncovered } from './match';
import { descendants, lastOf, within, type UiDump, type UiNode } from './ui-xml';

/** A profiled interstitial on screen; `close` is null when its one close control cannot be tapped. */
export interface InterstitialHit {
  interstitial: Interstitial;
  close: UiNode | null;
  why: string;
}

/** The root-level subtree that holds `n` (a dialog is drawn as its own subtree over the page). */
function rootChildOf(dump: UiDump, n: UiNode): UiNode | null {
  let c: UiNode = n;
  while (c.parent && c.parent !== dump.root) c = c.parent;
  return c.parent === dump.root ? c : null;
}

/**
 * A profiled interstitial: every signature matcher finds a node in one root-level subtree, and
 * that subtree holds exactly one node the close matcher names, clickable (or inside a clickable
 * node of the subtree) and not covered by anything drawn above it.
 */
export function findInterstitial(dump: UiDump, p: PddProfile): InterstitialHit | null {
  // several may be up at once: the one drawn last (on top) is the one to close first
  let best: { hit: InterstitialHit; order: number } | null = null;
  for (const i of p.interstitials) {
    const first = allMatching(dump.nodes, i.signature[0] as NonNullable<(typeof i.signature)[0]>);
    for (const anchor of first) {
      const box = rootChildOf(dump, anchor);
      if (!box || (best && best.order > box.order)) continue;
      const hit = matchIn(dump, i, box);
      if (hit) best = { hit, order: box.order };
    }
  }
  return best?.hit ?? null;
}

function matchIn(dump: UiDump, i: Interstitial, box: UiNode): InterstitialHit | null {
  const inBox = [box, ...descendants(box)];
  if (!i.signature.every((m) => allMatching(inBox, m).length > 0)) return null;
  const closes = allMatching(inBox, i.close);
  if (closes.length !== 1 || !closes[0])
    return { interstitial: i, close: null, why: `its close control occurs ${closes.length} times` };
  const close = closes[0];
  let clickable: UiNode | null = close;
  while (clickable && !clickable.clickable && clickable !== box) clickable = clickable.parent;
  if (!clickable?.clickable || !close.enabled)
    return { interstitial: i, close: null, why: 'its close control is not an enabled clickable node' };
  if (!uncovered(dump, close))
    return { interstitial: i, close: null, why: 'its close control is covered by something drawn above it' };
  return { interstitial: i, close, why: 'profiled' };
}

/** A page that stops the purchase: every matcher of its signature finds a node. */
export function findStopPage(dump: UiDump, p: PddProfile): PageSignature | null {
  return p.pages.find((page) => page.signature.every((m) => allMatching(dump.nodes, m).length > 0)) ?? null;
}

/**
 * Why a screen recognised by `signature` nodes is not that screen: one of them is covered by a
 * node drawn above it, or something other than a toast is drawn after `anchor` (the last part of
 * the screen, e.g. the goods page's bottom bar): a dialog over the page. Null when clear.
 */
export function coveredBy(
  dump: UiDump,
  p: PddProfile,
  signature: readonly UiNode[],
  anchor: UiNode | null,
): string | null {
  for (const n of signature)
    if (!uncovered(dump, n)) return `${JSON.stringify(n.text || n.contentDesc || n.className)} is covered`;
  if (anchor) {
    const after = dump.nodes.slice(lastOf(anchor).order + 1).filter((n) => !isToast(n, p));
    const extra = after.find((n) => !within(n, anchor));
    if (extra)
      return `something is drawn over the page: ${extra.className} ${JSON.stringify(extra.text || extra.contentDesc)} [${extra.bounds.left},${extra.bounds.top}][${extra.bounds.right},${extra.bounds.bottom}]`;
  }
  return null;
}

function isToast(n: UiNode, p: PddProfile): boolean {
  let t: UiNode | null = n;
  while (t && t.className !== p.cls.toast) t = t.parent;
  return t !== null;
}
