import type { AdbDevice } from '../adb/adb-device';
import type { CounterClock } from '../counters';
import type { StepLog } from '../step-log';
import type { PddProfile } from './profile';
import type { GoodsView } from './screens';
import type { PanelState } from './panel-state';
import type { UiDump } from './ui-xml';
import { memoryDumpMemory, type DumpMemory, type DumpWitness } from './session/dumps';
import { back, openGoods, openSpecPanel } from './session/navigation';
import { revealSizes, selectOption, type OpenPanel } from './session/panel';
import { createSessionParts, type SessionParts } from './session/parts';
import { DEFAULT_TIMING, type SessionTiming } from './session/timing';

// The session's public face; each concept lives in its own file under ./session/.
export type { DumpMemory, DumpWitness } from './session/dumps';
export type { OpenPanel } from './session/panel';
export { DEFAULT_TIMING, type SessionTiming } from './session/timing';

/**
 * The narrow action vocabulary of a purchase on one phone: open goods, open the spec panel
 * through the profiled entry, select an option, reveal the sizes, back. Each action is one
 * input followed by one dump that proves the expected state; only loading and stale dumps
 * are re-dumped, within a bound. No coordinate ever comes from a caller.
 *
 * Where each rule lives: the moves between pages in ./session/navigation.ts, what is done on an
 * open panel and its read-backs in ./session/panel.ts, the inputs and the covered-node refusal in
 * ./session/inputs.ts, the screen proofs (dump until judged) in ./session/waits.ts, the dumps,
 * their staleness and the evidence witness in ./session/dumps.ts, the waits' lengths in
 * ./session/timing.ts, the heartbeat and cancel point in ./session/checkpoint.ts.
 */
export class PddSession {
  /** shared by every action of this session (and the purchase's, ./purchase/purchase-session.ts) */
  protected readonly parts: SessionParts;

  constructor(
    adb: AdbDevice,
    readonly profile: PddProfile,
    clock: CounterClock,
    readonly steps: StepLog,
    timing: SessionTiming = DEFAULT_TIMING,
    memory: DumpMemory = memoryDumpMemory(),
  ) {
    this.parts = createSessionParts(adb, profile, clock, steps, timing, memory);
  }

  /** The last dump's XML, for artifacts. */
  lastXml(): string | null {
    return this.parts.dumps.lastXml();
  }

  async openGoods(goodsId: string): Promise<GoodsView> {
    return openGoods(this.parts, goodsId);
  }

  /** A network error page gets ONE re-open of the goods link per session (./interruptions.ts). */
  mayReopen(err: unknown): boolean {
    return this.parts.interruptions.mayReopen(err);
  }

  /** Taps the profiled entry once; the new panel must show nothing selected. */
  async openSpecPanel(goods: GoodsView): Promise<OpenPanel> {
    return openSpecPanel(this.parts, goods);
  }

  /** Taps one option and proves the selection (./session/panel.ts). */
  async selectOption(panel: OpenPanel, dim: number, value: string, expect: (string | null)[]): Promise<PanelState> {
    return selectOption(this.parts, panel, dim, value, expect);
  }

  /** The one reveal swipe of a panel, from its proven state only (./session/panel.ts). */
  async revealSizes(panel: OpenPanel, target: string): Promise<PanelState> {
    return revealSizes(this.parts, panel, target);
  }

  /** One back, never repeated; with `expectGoods` the goods page must come back. */
  async back(expectGoods: boolean): Promise<GoodsView | null> {
    return back(this.parts, expectGoods);
  }

  /** After the fence: an interruption is read, never closed (./interruptions.ts). */
  readOnlyInterruptions(): void {
    this.parts.interruptions.readOnly();
  }

  /** On the final panel (`true`) an interruption is read, never closed, until `false` (./interruptions.ts). */
  finalPanelInterruptions(on: boolean): void {
    this.parts.interruptions.onFinalPanel(on);
  }

  /** Read-only: one dump with no judgement (the evidence camera's look after a capture); null when it failed. */
  async look(): Promise<UiDump | null> {
    return this.parts.dumps.look();
  }

  /** The session's last dump as parsed; null before the first. */
  lastDumpOrNull(): UiDump | null {
    return this.parts.dumps.lastDumpOrNull();
  }

  /**
   * Counts of dumps and inputs so far, and the inputs when the last dump was made: the last dump
   * is the screen only while no input followed it.
   */
  marks(): { dumps: number; inputs: number; inputsAtLastDump: number } {
    return this.parts.dumps.marks();
  }

  setWitness(witness: DumpWitness | null): void {
    this.parts.dumps.setWitness(witness);
  }
}
