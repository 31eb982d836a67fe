import { DeviceError } from '../../errors';
import { structure } from '../match';
import {
  laterDimensionsHidden,
  laterDimensionsVisible,
  optionIn,
  readPanelState,
  type PanelState,
} from '../panel-state';
import { optionTapPoint, tappable } from '../panel-view';
import type { SessionParts } from './parts';
import { sleep } from './timing';
import { WAIT } from './waits';

/** A panel the session opened, with its dimension names (page order) and reveal bookkeeping. */
export interface OpenPanel {
  serial: number;
  names: string[];
  state: PanelState;
}

/**
 * Taps one option, found by exact equality in its own dimension's section, and proves the
 * result: that value selected, every other dimension as `expect` says, the summary agreeing.
 */
export async function selectOption(
  s: SessionParts,
  panel: OpenPanel,
  dim: number,
  value: string,
  expect: (string | null)[],
): Promise<PanelState> {
  const option = optionIn(panel.state, dim, value);
  if (!option)
    throw new DeviceError('UNEXPECTED_SCREEN', `option ${JSON.stringify(value)} of ${panel.names[dim]} is not in view`);
  if (!option.enabled || !tappable(option))
    throw new DeviceError(
      'UNEXPECTED_SCREEN',
      `option ${JSON.stringify(value)} of ${panel.names[dim]} cannot be tapped`,
    );
  const point = optionTapPoint(option);
  s.steps.add('select_option', {
    dimension: panel.names[dim],
    value,
    toggles: option.selected ? 'off' : 'on',
    tap: { x: point.x, y: point.y },
  });
  await s.inputs.tapAt('option_tap', point, `option ${JSON.stringify(value)}`);
  await sleep(s.timing.tapSettleMs);
  const before = panel.state.selection[dim];
  panel.state = await waitForPanel(
    s,
    panel,
    `${panel.names[dim]} = ${value}`,
    expect,
    undefined,
    (st) => st.selection[dim] !== before,
  );
  return panel.state;
}

/**
 * The one swipe of a panel (reveal_size_options): only from the proven state
 * "target first-dimension value selected, nothing else selected, later dimensions hidden",
 * once per panel, never retried, started in a gap between option columns inside the scroll
 * container and never near the submit control.
 */
export async function revealSizes(s: SessionParts, panel: OpenPanel, target: string): Promise<PanelState> {
  const st = panel.state;
  if (s.panels.revealed.has(panel.serial))
    throw new DeviceError('UNEXPECTED_SCREEN', 'reveal-sizes already ran on this panel');
  const proven =
    st.selection[0] === target &&
    st.selection.every((v, d) => d === 0 || v === null) &&
    laterDimensionsHidden(st) &&
    panel.names.length > 1;
  if (!proven)
    throw new DeviceError(
      'UNEXPECTED_SCREEN',
      `reveal-sizes needs "${target} selected, nothing else, sizes hidden"; the panel shows ${st.view.summary}`,
    );
  s.panels.revealed.add(panel.serial);
  const { x, y1, y2 } = revealLane(s, st);
  s.steps.add('reveal_sizes', { from: { x, y: y1 }, to: { x, y: y2 } });
  await s.inputs.send('reveal_sizes', () => s.adb.swipe(x, y1, x, y2, s.profile.reveal.durationMs));
  s.clock.counters.swipes += 1;
  await sleep(s.timing.swipeSettleMs);
  const expect = panel.names.map((_, d) => (d === 0 ? target : null));
  panel.state = await waitForPanel(
    s,
    panel,
    'sizes in view',
    expect,
    (p) => laterDimensionsVisible(p),
    (p) => laterDimensionsVisible(p),
  );
  return panel.state;
}

/** The profiled lane of the reveal swipe: inside the scroll container, clear of every clickable. */
function revealLane(s: SessionParts, st: PanelState): { x: number; y1: number; y2: number } {
  const sc = st.view.scroll;
  const y1 = sc.bottom - s.profile.reveal.startAboveBottom;
  const y2 = y1 - s.profile.reveal.distance;
  if (y2 <= sc.top || y1 >= st.view.confirmTop)
    throw structure('spec panel: the scroll container is too small for the profiled reveal swipe');
  for (const x of s.profile.reveal.laneXs) {
    const clear =
      x > sc.left &&
      x < sc.right &&
      st.view.clickables.every((b) => !(x >= b.left && x < b.right && b.bottom > y2 && b.top <= y1));
    if (clear) return { x, y1, y2 };
  }
  throw structure('spec panel: no profiled lane between option columns is clear for the reveal swipe');
}

/**
 * Dumps until the panel shows the input's effect and proves `expect` (and `extra`). `shows`
 * says whether a reading shows the input's effect at all: a panel exactly as it was before the
 * input (the app has not redrawn yet) is re-dumped, at most `maxUnchangedDumps` times, and then
 * judged as it is — the read-back is never relaxed, only looked at again.
 */
export async function waitForPanel(
  s: SessionParts,
  panel: OpenPanel,
  what: string,
  expect: (string | null)[],
  extra: (st: PanelState) => boolean = () => true,
  shows: (st: PanelState) => boolean = () => true,
): Promise<PanelState> {
  const before = panel.state;
  let unchanged = 0;
  return s.waits.waitFor(what, true, (screen) => {
    if (screen.kind !== 'sku_panel') return undefined;
    const st = readPanelState(screen.panel, panel.names, s.profile, panel.state.selection);
    if (!shows(st) && samePanel(st, before) && unchanged < (s.timing.maxUnchangedDumps ?? 0)) {
      unchanged += 1;
      s.steps.add('unchanged_dump', { waiting_for: what });
      return WAIT;
    }
    const ok = expect.every((v, d) => st.selection[d] === v) && extra(st);
    if (!ok)
      throw new DeviceError('UNEXPECTED_SCREEN', `expected ${what}; the panel shows ${screen.panel.summary}`, {
        selection: st.selection,
      });
    return st;
  });
}

/** The panel exactly as before an input: same selection, count, price and fold. */
function samePanel(a: PanelState, b: PanelState): boolean {
  return (
    a.selection.every((v, d) => v === b.selection[d]) &&
    a.view.count === b.view.count &&
    a.view.priceText === b.view.priceText &&
    laterDimensionsVisible(a) === laterDimensionsVisible(b)
  );
}
