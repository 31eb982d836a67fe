import type { PddProfile } from './profile';
import { expectNode, optionalById, structure, uniqueById } from './match';
import { centre, contains, descendants, type Bounds, type UiDump, type UiNode } from './ui-xml';

export interface OptionView {
  text: string;
  selected: boolean;
  enabled: boolean;
  bounds: Bounds;
}

/** One dimension's section as far as it is in view; `title` is null when scrolled off the top. */
export interface SectionView {
  title: string | null;
  options: OptionView[];
}

/** What one dump of the spec panel shows, read by resource id and nothing else. */
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

export function readPanel(dump: UiDump, p: PddProfile): PanelView {
  const where = 'spec panel';
  uniqueById(dump.nodes, p.id.skuPanel, where);
  const price = uniqueById(dump.nodes, p.id.skuPrice, where);
  const list = optionalById(dump.nodes, p.id.skuListPrice, where);
  const summary = uniqueById(dump.nodes, p.id.skuSelected, where);
  const scroll = uniqueById(dump.nodes, p.id.skuScroll, where);
  expectNode(scroll.scrollable, `${where}: ${p.id.skuScroll} is not scrollable`);
  const content = uniqueById(dump.nodes, p.id.skuContent, where);
  expectNode(content.parent === scroll, `${where}: the option list is not inside the scroll container`);
  const confirm = uniqueById(dump.nodes, p.id.skuConfirm, where);
  expectNode(confirm.bounds.top >= scroll.bounds.bottom, `${where}: the submit control overlaps the option list`);

  const sections: SectionView[] = [];
  let pendingTitle: string | null = null;
  let count: string | null = null;
  for (const child of content.children) {
    if (child.resourceId === p.id.skuDimTitle) {
      expectNode(
        child.className === p.cls.textView && child.children.length === 0 && child.text.length > 0,
        `${where}: a dimension title is not a text leaf`,
      );
      pendingTitle = child.text;
    } else if (child.resourceId === p.id.skuOptions) {
      sections.push({ title: pendingTitle, options: child.children.map((c) => readOption(c, p)) });
      pendingTitle = null;
    } else if (child.resourceId === p.id.skuQuantity) {
      count = optionalById(descendants(child), p.id.skuCount, where)?.text ?? null;
    } else {
      throw structure(`${where}: unexpected node ${child.resourceId || child.className} in the option list`);
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
    confirmTop: confirm.bounds.top,
    clickables,
  };
}

/** An option is a clickable PDD TextView leaf, alone or as the label of an image card. */
function readOption(n: UiNode, p: PddProfile): OptionView {
  let leaf = n;
  if (n.resourceId === p.id.skuCard) {
    const labels = n.children.filter((c) => c.resourceId === p.id.skuOption);
    expectNode(labels.length === 1 && !n.clickable, `spec panel: an option card holds ${labels.length} labels`);
    leaf = labels[0] as UiNode;
  }
  expectNode(
    leaf.resourceId === p.id.skuOption &&
      leaf.className === p.cls.textView &&
      leaf.packageName === p.pkg &&
      leaf.clickable &&
      leaf.children.length === 0 &&
      leaf.text.length > 0,
    `spec panel: option node ${leaf.resourceId || leaf.className} is not a clickable text leaf`,
  );
  return { text: leaf.text, selected: leaf.selected, enabled: leaf.enabled, bounds: leaf.bounds };
}

export function tappable(o: OptionView): boolean {
  return o.bounds.bottom - o.bounds.top >= MIN_TAPPABLE_PX && o.bounds.right - o.bounds.left >= MIN_TAPPABLE_PX;
}

export function optionTapPoint(o: OptionView): { x: number; y: number } {
  return centre(o.bounds);
}
