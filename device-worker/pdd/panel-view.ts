import type { PddProfile } from './profile';
import { expectNode, structure } from './match';
import { centre, contains, descendants, type Bounds, type UiDump, type UiNode } from './ui-xml';

export interface OptionView {
  text: string;
  selected: boolean;
  enabled: boolean;
  bounds: Bounds;
  /** the node a tap on it means */
  node: UiNode;
}

/** One dimension's section as far as it is in view; `title` is null when scrolled off the top. */
export interface SectionView {
  title: string | null;
  options: OptionView[];
}

/** What one dump of the spec panel shows. */
export interface PanelView {
  priceText: string;
  listPriceText: string | null;
  summary: string;
  /** the quantity, when the quantity row is in view */
  count: string | null;
  sections: SectionView[];
  scroll: Bounds;
  /** top edge of the submit control: no gesture may reach it */
  confirmTop: number;
  /** clickable areas inside the scroll container (a reveal swipe must not start on one) */
  clickables: Bounds[];
}

const MIN_TAPPABLE_PX = 30;

/** The panel's summary row (`请选择：…` / `已选：…`): a PDD text leaf, one per panel. */
export function summaryNode(dump: UiDump, p: PddProfile): UiNode[] {
  return dump.nodes.filter(
    (n) =>
      n.className === p.cls.textView &&
      n.packageName === p.pkg &&
      n.children.length === 0 &&
      (n.text.startsWith(p.text.summaryPending) || n.text.startsWith(p.text.summaryDone)),
  );
}

/**
 * What one dump of the spec panel shows, read by structure: the summary's parent is the panel;
 * the text rows before the summary are the top price and, when shown, the list price; the one
 * scrollable ScrollView of the panel holds one LinearLayout of sections (a title row, an options
 * row, and the quantity row that holds `购买数量`); the clickable row after it is the submit control.
 */
export function readPanel(dump: UiDump, p: PddProfile): PanelView {
  const where = 'spec panel';
  const summaries = summaryNode(dump, p);
  expectNode(summaries.length === 1, `${where}: ${summaries.length} summary rows, expected 1`);
  const summary = summaries[0] as UiNode;
  const panel = summary.parent;
  if (!panel) throw structure(`${where}: the summary has no panel`);
  const at = panel.children.indexOf(summary);
  const before = panel.children.slice(0, at).filter((c) => c.className === p.cls.textView);
  expectNode(before.length === 1 || before.length === 2, `${where}: ${before.length} price rows above the summary`);
  const [price, list] = before as [UiNode, UiNode | undefined];
  const scrolls = panel.children.filter((c) => c.scrollable);
  expectNode(scrolls.length === 1, `${where}: ${scrolls.length} scroll containers, expected 1`);
  const scroll = scrolls[0] as UiNode;
  expectNode(scroll.className === p.cls.scrollView, `${where}: the option list is not a ScrollView`);
  expectNode(scroll.children.length === 1, `${where}: the scroll container holds ${scroll.children.length} children`);
  const content = scroll.children[0] as UiNode;
  expectNode(content.className === p.cls.linearLayout, `${where}: the option list is not a LinearLayout`);
  const confirm = panel.children[panel.children.length - 1];
  expectNode(
    !!confirm && confirm.clickable && confirm.order > scroll.order,
    `${where}: the last row of the panel is not a clickable submit control`,
  );
  expectNode(
    (confirm as UiNode).bounds.top >= scroll.bounds.bottom,
    `${where}: the submit control overlaps the option list`,
  );
  // no gesture may reach any clickable row after the list (a second submit control included:
  // Gate 3 refuses that one by its text, ./purchase/final-panel.ts)
  const confirmTop = Math.min(
    ...panel.children.filter((c) => c.order > scroll.order && c.clickable).map((c) => c.bounds.top),
  );

  const sections: SectionView[] = [];
  let pendingTitle: string | null = null;
  let count: string | null = null;
  for (const child of content.children) {
    if (child.className === p.cls.textView) {
      expectNode(
        child.children.length === 0 && child.text.length > 0,
        `${where}: a dimension title is not a text leaf`,
      );
      expectNode(!child.clickable, `${where}: a dimension title is clickable`);
      pendingTitle = child.text;
    } else if (child.className === p.cls.linearLayout && isQuantityRow(child, p)) {
      count = quantityCount(child, p);
    } else if (child.className === p.cls.linearLayout) {
      sections.push({ title: pendingTitle, options: child.children.map((c) => readOption(c, p)) });
      pendingTitle = null;
    } else {
      throw structure(`${where}: unexpected node ${child.className} in the option list`);
    }
  }
  const clickables = descendants(scroll)
    .filter((n) => n.clickable)
    .map((n) => n.bounds);
  for (const s of sections)
    for (const o of s.options)
      expectNode(contains(scroll.bounds, o.bounds), `${where}: option "${o.text}" lies outside the scroll container`);
  return {
    priceText: price.text,
    listPriceText: list?.text ?? null,
    summary: summary.text,
    count,
    sections,
    scroll: scroll.bounds,
    confirmTop,
    clickables,
  };
}

/** The quantity row: a row of the option list holding the `购买数量` label. */
export function isQuantityRow(n: UiNode, p: PddProfile): boolean {
  return n.children.some((c) => c.text === p.text.quantityLabel && c.children.length === 0);
}

/** The count: the one non-clickable digits leaf of the quantity row. */
function quantityCount(row: UiNode, p: PddProfile): string | null {
  const counts = row.children.filter((c) => c.className === p.cls.textView && !c.clickable && /^\d+$/.test(c.text));
  expectNode(counts.length <= 1, `spec panel: the quantity row shows ${counts.length} counts`);
  return counts[0]?.text ?? null;
}

/** An option is a clickable PDD TextView leaf, alone or as the one label of an image card. */
function readOption(n: UiNode, p: PddProfile): OptionView {
  let leaf = n;
  if (n.className === p.cls.frameLayout) {
    const labels = n.children.filter((c) => c.className === p.cls.textView);
    expectNode(labels.length === 1 && !n.clickable, `spec panel: an option card holds ${labels.length} labels`);
    leaf = labels[0] as UiNode;
  }
  expectNode(
    leaf.className === p.cls.textView &&
      leaf.packageName === p.pkg &&
      leaf.clickable &&
      leaf.children.length === 0 &&
      leaf.text.length > 0,
    `spec panel: option node ${leaf.className} is not a clickable text leaf`,
  );
  return { text: leaf.text, selected: leaf.selected, enabled: leaf.enabled, bounds: leaf.bounds, node: leaf };
}

export function tappable(o: OptionView): boolean {
  return o.bounds.bottom - o.bounds.top >= MIN_TAPPABLE_PX && o.bounds.right - o.bounds.left >= MIN_TAPPABLE_PX;
}

export function optionTapPoint(o: OptionView): { x: number; y: number; node: UiNode } {
  return { ...centre(o.bounds), node: o.node };
}
