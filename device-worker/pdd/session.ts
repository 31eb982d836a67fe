import { createHash } from 'node:crypto';
import { Context } from '@temporalio/activity';
import { CancelledFailure } from '@temporalio/common';
import type { AdbDevice } from '../adb/adb-device';
import type { CounterClock } from '../counters';
import type { TapTarget } from '../adb/adb-device';
import { DeviceError } from '../errors';
import { Interruptions } from './interruptions';
import type { StepLog } from '../step-log';
import type { PddProfile } from './profile';
import { structure } from './match';
import { optionTapPoint, tappable } from './panel-view';
import {
  dimensionNamesFromSummary,
  laterDimensionsHidden,
  laterDimensionsVisible,
  optionIn,
  readPanelState,
  type PanelState,
} from './panel-state';
import { classify, screenError, type GoodsView, type Screen } from './screens';
import { parseUiDump, reaches, resolveRef, type UiDump, type UiNode } from './ui-xml';

/**
 * How long the session waits before it looks (docs/PERFORMANCE.md, device section). A dump is the
 * only proof and the dearest thing a phone does (1.2–2.5 s on a real one), so the session looks as
 * soon as the screen can show the input's effect and re-looks only at a loading screen, a stale
 * dump or the screen exactly as before the input — never a pause longer than a page's settle.
 */
export interface SessionTiming {
  /**
   * pause after an in-app navigation tap (the spec-panel entry, back) before its first dump: the
   * app shows its loading marker until the new page has settled (0.3–1.5 s), and a dump of the
   * marker costs more than the rest of the settle. `am start` has none: the app shows the marker
   * first whatever the wait, so the first dump is the wait.
   */
  navigationSettleMs: number;
  /** pause after an option or quantity tap before the dump that proves it (the panel redraws in place) */
  tapSettleMs: number;
  swipeSettleMs: number;
  /** the longest pause before re-dumping a loading, stale or unchanged screen (the first re-dump is at once, then ¼, ½, 1×) */
  loadingPollMs: number;
  /** most dumps one wait may take before it gives up */
  maxDumpsPerWait: number;
  waitTimeoutMs: number;
  /** dumps of the panel exactly as before an option, quantity or swipe input that are re-dumped before the read-back fails */
  maxUnchangedDumps?: number;
}

export const DEFAULT_TIMING: SessionTiming = {
  navigationSettleMs: 1100,
  tapSettleMs: 0,
  swipeSettleMs: 0,
  loadingPollMs: 500,
  maxDumpsPerWait: 8,
  waitTimeoutMs: 60_000,
  maxUnchangedDumps: 2,
};

/**
 * Told of every dump and asked before every input (the evidence camera, ./purchase/camera.ts):
 * what needs the screen as it is now must be settled before an input changes it.
 */
export interface DumpWitness {
  afterDump(dump: UiDump): void;
  /** true while something waits for a dump of the screen as it is (taken before the next input) */
  waiting(): boolean;
  /**
   * The next input's effect is known (`shows`): what waits may be checked by the first dump after
   * it instead, when that dump shows exactly the effect — no dump of its own before the input.
   */
  across(shows: (dump: UiDump) => boolean): void;
}

/** Remembers the hash of the phone's last dump across sessions, so a stale first dump is seen. */
export interface DumpMemory {
  get(): string | null;
  set(hash: string): void;
}

function memoryDumpMemory(): DumpMemory {
  let last: string | null = null;
  return { get: () => last, set: (h) => (last = h) };
}

/**
 * The safe point between two phone actions, when the session runs inside a Temporal activity:
 * it heartbeats (a phone host that died is noticed within the activity's heartbeat timeout, and
 * the heartbeat is what brings a cancel to the activity), then stops the activity if it was
 * cancelled. Outside an activity (`npm run device`, unit tests) it does nothing. Never called
 * between submitOnce's ledger row and its tap.
 */
export function activityCheckpoint(what: string): void {
  let ctx: Context;
  try {
    ctx = Context.current();
  } catch {
    return;
  }
  ctx.heartbeat({ at: what });
  if (ctx.cancellationSignal.aborted) throw new CancelledFailure(`cancelled before ${what}`);
}

export const WAIT = Symbol('wait');
export type Judged<T> = T | typeof WAIT;

/** A panel the session opened, with its dimension names (page order) and reveal bookkeeping. */
export interface OpenPanel {
  serial: number;
  names: string[];
  state: PanelState;
}

/**
 * The narrow action vocabulary of a purchase on one phone: open goods, open the spec panel
 * through the profiled entry, select an option, reveal the sizes, back. Each action is one
 * input followed by one dump that proves the expected state; only loading and stale dumps
 * are re-dumped, within a bound. No coordinate ever comes from a caller.
 */
export class PddSession {
  private panelSerial = 0;
  private readonly revealed = new Set<number>();
  private last: UiDump | null = null;
  private dumps = 0;
  /** inputs sent, counted before each is sent (one that failed may still have reached the phone) */
  protected inputs = 0;
  private inputsAtLastDump = 0;
  private witness: DumpWitness | null = null;
  private readonly interruptions: Interruptions;

  constructor(
    private readonly adb: AdbDevice,
    readonly profile: PddProfile,
    private readonly clock: CounterClock,
    readonly steps: StepLog,
    private readonly timing: SessionTiming = DEFAULT_TIMING,
    private readonly memory: DumpMemory = memoryDumpMemory(),
  ) {
    this.interruptions = new Interruptions(profile, steps);
  }

  /** The last dump's XML, for artifacts. */
  lastXml(): string | null {
    return this.last?.xml ?? null;
  }

  async openGoods(goodsId: string): Promise<GoodsView> {
    if (!/^\d+$/.test(goodsId))
      throw new DeviceError('INVALID_INPUT', `goods id ${JSON.stringify(goodsId)} is not digits`);
    const url = this.profile.goodsUrl(goodsId);
    this.steps.add('open_goods', { goods_id: goodsId, url });
    activityCheckpoint('open_goods');
    await this.beforeInput();
    this.inputs += 1;
    await this.adb.startView(url);
    try {
      return await this.waitForGoods(goodsId);
    } catch (err) {
      if (!this.mayReopen(err)) throw err;
      this.steps.add('reopen_goods', { goods_id: goodsId, url, after: 'NETWORK_ERROR' });
      activityCheckpoint('reopen_goods');
      await this.beforeInput();
      this.inputs += 1;
      await this.adb.startView(url);
      return this.waitForGoods(goodsId);
    }
  }

  /** A network error page gets ONE re-open of the goods link per session (./interruptions.ts). */
  mayReopen(err: unknown): boolean {
    return this.interruptions.mayReopen(err);
  }

  private waitForGoods(goodsId: string): Promise<GoodsView> {
    return this.waitFor('the goods page', true, (s) => {
      if (s.kind === 'goods_detail') return s.goods;
      if (s.kind === 'goods_delisted')
        throw new DeviceError('GOODS_DELISTED', `goods ${goodsId} is delisted (${this.profile.text.offline})`, {
          goods_id: goodsId,
          title: s.title,
        });
      return WAIT;
    });
  }

  /** Taps the profiled entry once; the new panel must show nothing selected. */
  async openSpecPanel(goods: GoodsView): Promise<OpenPanel> {
    this.steps.add('open_spec_panel', { tap: { x: goods.entry.x, y: goods.entry.y } });
    await this.tapAt(goods.entry, goods.entry.label);
    await sleep(this.timing.navigationSettleMs);
    const view = await this.waitFor('the spec panel', true, (s) =>
      s.kind === 'sku_panel' ? s.panel : s.kind === 'goods_detail' ? WAIT : undefined,
    );
    const names = dimensionNamesFromSummary(view.summary, this.profile);
    const state = readPanelState(view, names, this.profile);
    if (state.selection.some((v) => v !== null)) throw structure('spec panel: a fresh panel already has a selection');
    this.panelSerial += 1;
    return { serial: this.panelSerial, names, state };
  }

  /**
   * Taps one option, found by exact equality in its own dimension's section, and proves the
   * result: that value selected, every other dimension as `expect` says, the summary agreeing.
   */
  async selectOption(panel: OpenPanel, dim: number, value: string, expect: (string | null)[]): Promise<PanelState> {
    const option = optionIn(panel.state, dim, value);
    if (!option)
      throw new DeviceError(
        'UNEXPECTED_SCREEN',
        `option ${JSON.stringify(value)} of ${panel.names[dim]} is not in view`,
      );
    if (!option.enabled || !tappable(option))
      throw new DeviceError(
        'UNEXPECTED_SCREEN',
        `option ${JSON.stringify(value)} of ${panel.names[dim]} cannot be tapped`,
      );
    const point = optionTapPoint(option);
    this.steps.add('select_option', {
      dimension: panel.names[dim],
      value,
      toggles: option.selected ? 'off' : 'on',
      tap: { x: point.x, y: point.y },
    });
    await this.tapAt(point, `option ${JSON.stringify(value)}`);
    await sleep(this.timing.tapSettleMs);
    const before = panel.state.selection[dim];
    panel.state = await this.waitForPanel(
      panel,
      `${panel.names[dim]} = ${value}`,
      expect,
      undefined,
      (s) => s.selection[dim] !== before,
    );
    return panel.state;
  }

  /**
   * The one swipe of a panel (reveal_size_options): only from the proven state
   * "target first-dimension value selected, nothing else selected, later dimensions hidden",
   * once per panel, never retried, started in a gap between option columns inside the scroll
   * container and never near the submit control.
   */
  async revealSizes(panel: OpenPanel, target: string): Promise<PanelState> {
    const st = panel.state;
    if (this.revealed.has(panel.serial))
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
    this.revealed.add(panel.serial);
    const { x, y1, y2 } = this.revealLane(st);
    this.steps.add('reveal_sizes', { from: { x, y: y1 }, to: { x, y: y2 } });
    await this.beforeInput();
    activityCheckpoint('reveal_sizes');
    this.inputs += 1;
    await this.adb.swipe(x, y1, x, y2, this.profile.reveal.durationMs);
    this.clock.counters.swipes += 1;
    await sleep(this.timing.swipeSettleMs);
    const expect = panel.names.map((_, d) => (d === 0 ? target : null));
    panel.state = await this.waitForPanel(
      panel,
      'sizes in view',
      expect,
      (s) => laterDimensionsVisible(s),
      (s) => laterDimensionsVisible(s),
    );
    return panel.state;
  }

  /**
   * One back, sealed before it is sent and never repeated. With `expectGoods` the goods page
   * must come back (proven by a dump); otherwise nothing is read afterwards.
   */
  async back(expectGoods: boolean): Promise<GoodsView | null> {
    this.steps.add('back', { expect: expectGoods ? 'goods page' : 'nothing' });
    await this.beforeInput();
    activityCheckpoint('back');
    this.inputs += 1;
    await this.adb.keyevent(this.profile.keyBack);
    this.clock.counters.keyevents += 1;
    if (!expectGoods) return null;
    await sleep(this.timing.navigationSettleMs);
    return this.waitFor('the goods page after back', true, (s) =>
      s.kind === 'goods_detail' ? s.goods : s.kind === 'sku_panel' ? WAIT : undefined,
    );
  }

  private revealLane(st: PanelState): { x: number; y1: number; y2: number } {
    const sc = st.view.scroll;
    const y1 = sc.bottom - this.profile.reveal.startAboveBottom;
    const y2 = y1 - this.profile.reveal.distance;
    if (y2 <= sc.top || y1 >= st.view.confirmTop)
      throw structure('spec panel: the scroll container is too small for the profiled reveal swipe');
    for (const x of this.profile.reveal.laneXs) {
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
  protected async waitForPanel(
    panel: OpenPanel,
    what: string,
    expect: (string | null)[],
    extra: (s: PanelState) => boolean = () => true,
    shows: (s: PanelState) => boolean = () => true,
  ): Promise<PanelState> {
    const before = panel.state;
    let unchanged = 0;
    return this.waitFor(what, true, (s) => {
      if (s.kind !== 'sku_panel') return undefined;
      const st = readPanelState(s.panel, panel.names, this.profile, panel.state.selection);
      if (!shows(st) && samePanel(st, before) && unchanged < (this.timing.maxUnchangedDumps ?? 0)) {
        unchanged += 1;
        this.steps.add('unchanged_dump', { waiting_for: what });
        return WAIT;
      }
      const ok = expect.every((v, d) => st.selection[d] === v) && extra(st);
      if (!ok)
        throw new DeviceError('UNEXPECTED_SCREEN', `expected ${what}; the panel shows ${s.panel.summary}`, {
          selection: st.selection,
        });
      return st;
    });
  }

  /**
   * One tap on `point.node` of the last dump. Refused here already (for collect as for a purchase)
   * when the node Android would dispatch to at the point is not that node or inside it: nothing
   * drawn over a control is ever tapped. `checkpoint: false` only for the submit tap, which follows
   * its ledger row with nothing between.
   */
  protected async tapAt(
    point: { x: number; y: number; node: UiNode },
    label: string,
    checkpoint = true,
  ): Promise<void> {
    const dump = this.last;
    const node = dump ? resolveRef(dump, point.node) : null;
    if (!dump || !node || !reaches(dump, point, node))
      throw new DeviceError(
        'TAP_REFUSED',
        `tap (${point.x},${point.y}) on ${label} refused: something is drawn over it`,
      );
    if (checkpoint) {
      // (never for the submit tap: nothing between its ledger row and it)
      await this.beforeInput();
      activityCheckpoint('a tap');
    }
    const target: TapTarget = { order: node.order, className: node.className, bounds: node.bounds, label };
    this.inputs += 1;
    await this.adb.tap(point.x, point.y, target);
    this.clock.counters.taps += 1;
  }

  /** After the fence: an interruption is read, never closed (./interruptions.ts). */
  readOnlyInterruptions(): void {
    this.interruptions.readOnly();
  }

  /**
   * Dumps until `judge` accepts the screen. Loading screens, failed dumps and a dump identical
   * to the previous one (stale) are re-dumped after a pause; `undefined` from judge is a wrong
   * screen and ends the wait at once; every dump is counted.
   */
  protected async waitFor<T>(
    what: string,
    changeExpected: boolean,
    judge: (s: Screen) => Judged<T> | undefined,
    /** identical dumps re-dumped before one is taken as the screen (when no change is required) */
    staleGraceAtStart = 0,
  ): Promise<T> {
    const deadline = Date.now() + this.timing.waitTimeoutMs;
    let last = 'nothing';
    let expectChange = changeExpected;
    // after a close tap one identical dump may be stale; a second is the app showing it again
    let staleGrace = staleGraceAtStart;
    let extra = 0;
    let again = 0;
    for (let n = 1; n <= this.timing.maxDumpsPerWait + extra; n++) {
      const got = await this.dump();
      if (got === 'failed') {
        last = 'a failed dump';
      } else if (got.stale && (expectChange || staleGrace > 0)) {
        if (!expectChange) staleGrace -= 1;
        last = 'a stale dump';
        this.steps.add('stale_dump', { waiting_for: what });
      } else {
        const screen = classify(got.dump, this.profile);
        if (screen.kind === 'loading') {
          last = 'the loading screen';
        } else {
          const close = this.interruptions.toClose(screen, what);
          if (close) {
            await this.tapAt(close, close.label);
            await sleep(this.timing.tapSettleMs);
            expectChange = false;
            staleGrace = 1;
            extra += 1;
            again = 0;
            last = `an interstitial`;
            continue;
          }
          const verdict = judge(screen);
          if (verdict === undefined) throw screenError(screen, what);
          if (verdict !== WAIT) return verdict;
          last = `still ${screen.kind}`;
        }
      }
      if (Date.now() >= deadline) break;
      // a dump takes long enough for most settles: look again at once, then back off to the cap
      await sleep(
        again === 0 ? 0 : Math.min(this.timing.loadingPollMs, (this.timing.loadingPollMs / 4) * 2 ** (again - 1)),
      );
      again += 1;
    }
    throw new DeviceError('SCREEN_TIMEOUT', `waited for ${what}: ${last} after ${this.timing.maxDumpsPerWait} dumps`);
  }

  private async dump(): Promise<{ dump: UiDump; stale: boolean } | 'failed'> {
    activityCheckpoint('a dump');
    this.clock.counters.dumps += 1;
    const out = await this.adb.dumpUi();
    if (out.kind === 'error') {
      this.steps.add('dump_failed', { message: out.message });
      return 'failed';
    }
    const hash = createHash('sha1').update(out.xml).digest('hex');
    const stale = hash === this.memory.get();
    this.memory.set(hash);
    const dump = parseUiDump(out.xml);
    this.last = dump;
    this.dumps += 1;
    this.inputsAtLastDump = this.inputs;
    this.witness?.afterDump(dump);
    return { dump, stale };
  }

  /** Read-only: one dump with no judgement (the evidence camera's look after a capture); null when it failed. */
  async look(): Promise<UiDump | null> {
    const got = await this.dump();
    return got === 'failed' ? null : got.dump;
  }

  /** The session's last dump as parsed; null before the first. */
  lastDumpOrNull(): UiDump | null {
    return this.last;
  }

  /**
   * Counts of dumps and inputs so far, and the inputs when the last dump was made: the last dump
   * is the screen only while no input followed it.
   */
  marks(): { dumps: number; inputs: number; inputsAtLastDump: number } {
    return { dumps: this.dumps, inputs: this.inputs, inputsAtLastDump: this.inputsAtLastDump };
  }

  setWitness(witness: DumpWitness | null): void {
    this.witness = witness;
  }

  protected witnessAcross(shows: (dump: UiDump) => boolean): void {
    this.witness?.across(shows);
  }

  /**
   * Before every input but the submit tap: a witness still waiting for the screen as it is gets
   * its dump now. A screen that is no longer the one the flow proved takes no input.
   */
  protected async beforeInput(): Promise<void> {
    if (!this.witness?.waiting()) return;
    const proven = this.last ? kindOf(this.last, this.profile) : null;
    const now = await this.look();
    if (!now || kindOf(now, this.profile) !== proven)
      throw new DeviceError(
        'UNEXPECTED_SCREEN',
        `the screen changed from ${proven ?? 'nothing'} before an input; no input on it`,
      );
  }
}

function kindOf(dump: UiDump, profile: PddProfile): string | null {
  try {
    return classify(dump, profile).kind;
  } catch {
    return null;
  }
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

function sleep(ms: number): Promise<void> {
  return ms > 0 ? new Promise((r) => setTimeout(r, ms)) : Promise.resolve();
}
