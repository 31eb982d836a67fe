import { DeviceError } from '../errors';
import type { PddProfile } from './profile';
import { structure } from './match';
import type { OptionView, PanelView, SectionView } from './panel-view';

/** The panel read against the goods' dimensions: which sections are in view, what is selected. */
export interface PanelState {
  view: PanelView;
  /** per dimension index, its section when in view */
  sections: (SectionView | null)[];
  /** per dimension index: the selected value, null when nothing is selected */
  selection: (string | null)[];
}

/** `请选择：颜色分类 尺码` of the untouched panel names every dimension in page order. */
export function dimensionNamesFromSummary(summary: string, p: PddProfile): string[] {
  if (!summary.startsWith(p.text.summaryPending))
    throw structure(
      `spec panel: the first summary ${JSON.stringify(summary)} does not start with ${p.text.summaryPending}`,
    );
  const names = summary.slice(p.text.summaryPending.length).split(' ');
  if (names.some((n) => n.length === 0) || new Set(names).size !== names.length)
    throw structure(`spec panel: cannot read dimension names from ${JSON.stringify(summary)}`);
  return names;
}

function expectedSummary(names: readonly string[], selection: readonly (string | null)[], p: PddProfile): string {
  if (selection.every((v) => v !== null)) return p.text.summaryDone + selection.join(' ');
  return p.text.summaryPending + names.filter((_, d) => selection[d] === null).join(' ');
}

/**
 * Maps the visible sections to dimensions by exact title equality; a section whose title is
 * scrolled off the top is the one just above the first titled section. The selection of a
 * dimension out of view comes from the summary, which must equal what the selection implies.
 */
export function readPanelState(
  view: PanelView,
  names: readonly string[],
  p: PddProfile,
  previous: readonly (string | null)[] = [],
): PanelState {
  const sections: (SectionView | null)[] = names.map(() => null);
  const firstTitled = view.sections.findIndex((s) => s.title !== null);
  view.sections.forEach((s, i) => {
    let d: number;
    if (s.title === null) {
      if (i !== 0 || firstTitled < 0)
        throw structure('spec panel: an option group without a title that is not the top one');
      d = names.indexOf(view.sections[firstTitled]?.title ?? '') - 1;
    } else {
      d = names.indexOf(s.title);
    }
    if (d < 0 || sections[d])
      throw structure(
        `spec panel: option group ${JSON.stringify(s.title)} does not match the dimensions ${names.join('/')}`,
      );
    const texts = s.options.map((o) => o.text);
    if (new Set(texts).size !== texts.length)
      throw ambiguous(`spec panel: dimension ${names[d]} shows the same option twice`);
    if (s.options.filter((o) => o.selected).length > 1)
      throw structure(`spec panel: two options of ${names[d]} are selected`);
    sections[d] = s;
  });
  const missing = parseMissing(view.summary, names, p);
  const selection = names.map((_, d) => {
    const s = sections[d];
    const picked = s?.options.find((o) => o.selected)?.text ?? null;
    if (s) return picked;
    if (missing !== 'all-selected' && missing.has(d)) return null;
    // Out of view but selected (scrolled past): no tap of ours can have changed it since the
    // dump that proved it, and a complete summary below names every value again.
    return previous[d] ?? undefined;
  });
  if (selection.some((v) => v === undefined))
    throw structure(`spec panel: a dimension out of view is selected and was never seen selected (${view.summary})`);
  const sel = selection as (string | null)[];
  if (view.summary !== expectedSummary(names, sel, p))
    throw structure(`spec panel: the summary ${JSON.stringify(view.summary)} disagrees with the selected options`);
  return { view, sections, selection: sel };
}

function parseMissing(summary: string, names: readonly string[], p: PddProfile): Set<number> | 'all-selected' {
  if (summary.startsWith(p.text.summaryDone)) return 'all-selected';
  if (!summary.startsWith(p.text.summaryPending))
    throw structure(`spec panel: unknown summary ${JSON.stringify(summary)}`);
  // Names are known, so the missing list is matched by equality against ordered subsets.
  const rest = summary.slice(p.text.summaryPending.length);
  const missing = new Set<number>();
  let pos = 0;
  names.forEach((n, d) => {
    const token = pos === 0 ? n : ` ${n}`;
    if (rest.startsWith(token, pos)) {
      missing.add(d);
      pos += token.length;
    }
  });
  if (pos !== rest.length) throw structure(`spec panel: unknown summary ${JSON.stringify(summary)}`);
  return missing;
}

export function optionIn(state: PanelState, dim: number, value: string): OptionView | null {
  const matches = state.sections[dim]?.options.filter((o) => o.text === value) ?? [];
  if (matches.length > 1) throw ambiguous(`spec panel: option ${JSON.stringify(value)} occurs twice`);
  return matches[0] ?? null;
}

/** Every dimension after the first is in view (the state after the one reveal swipe). */
export function laterDimensionsVisible(state: PanelState): boolean {
  return state.sections.every((s, d) => d === 0 || (s !== null && s.title !== null));
}

export function laterDimensionsHidden(state: PanelState): boolean {
  return state.sections.every((s, d) => d === 0 || s === null);
}

/** Still structure drift for collect, but flagged so a purchase can stop as OPTION_AMBIGUOUS. */
function ambiguous(message: string): DeviceError {
  return new DeviceError('PAGE_STRUCTURE_CHANGED', message, { ambiguous_option: true });
}
