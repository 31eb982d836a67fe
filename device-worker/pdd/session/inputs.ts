import { chaosPoint } from '../../../platform/chaos';
import type { AdbDevice, TapTarget } from '../../adb/adb-device';
import type { CounterClock } from '../../counters';
import { DeviceError } from '../../errors';
import type { PddProfile } from '../profile';
import { classify } from '../screens';
import { reaches, resolveRef, type UiDump, type UiNode } from '../ui-xml';
import { activityCheckpoint } from './checkpoint';
import type { DumpCache } from './dumps';

/**
 * Every act the session sends to the phone, by name. The chaos run (platform/chaos.ts,
 * docs/chaos.md) kills a process just before and just after each, so a new kind of act is a new
 * pair of kill points.
 */
export const DEVICE_ACTS = [
  'open_goods',
  'reopen_goods',
  'entry_tap',
  'option_tap',
  'reveal_sizes',
  'quantity_tap',
  'close_popup',
  'back',
  'submit_tap',
  'open_orders',
] as const;
export type DeviceAct = (typeof DEVICE_ACTS)[number];

/**
 * Every input the session sends to the phone, and what is checked before each: the witness gets
 * its dump of the screen as it is (a screen that is no longer the one proven takes no input), the
 * activity's safe point (./checkpoint.ts), and for a tap, that nothing is drawn over its node.
 * Each input is counted before it is sent.
 */
export class SessionInputs {
  constructor(
    private readonly adb: AdbDevice,
    private readonly profile: PddProfile,
    private readonly clock: CounterClock,
    private readonly dumps: DumpCache,
  ) {}

  /**
   * Before every input but the submit tap: a witness still waiting for the screen as it is gets
   * its dump now. A screen that is no longer the one the flow proved takes no input.
   */
  async beforeInput(): Promise<void> {
    if (!this.dumps.witnessWaiting()) return;
    const last = this.dumps.lastDumpOrNull();
    const proven = last ? kindOf(last, this.profile) : null;
    const now = await this.dumps.look();
    if (!now || kindOf(now, this.profile) !== proven)
      throw new DeviceError(
        'UNEXPECTED_SCREEN',
        `the screen changed from ${proven ?? 'nothing'} before an input; no input on it`,
      );
  }

  /** One input that is not a tap (an intent, the swipe, back): the witness, the safe point `what`, then the input. */
  async send(what: DeviceAct, input: () => Promise<void>): Promise<void> {
    await this.beforeInput();
    activityCheckpoint(what);
    this.dumps.inputSent();
    await this.act(what, input);
  }

  /** The input itself, between the chaos run's two kill points (nothing without a chaos run). */
  async act(act: DeviceAct, input: () => Promise<void>): Promise<void> {
    await chaosPoint({ kind: 'act', phase: 'before', act });
    await input();
    await chaosPoint({ kind: 'act', phase: 'after', act });
  }

  /**
   * One tap on `point.node` of the last dump. Refused here already (for collect as for a purchase)
   * when the node Android would dispatch to at the point is not that node or inside it: nothing
   * drawn over a control is ever tapped. `checkpoint: false` only for the submit tap, which follows
   * its ledger row with nothing between.
   */
  async tapAt(
    act: DeviceAct,
    point: { x: number; y: number; node: UiNode },
    label: string,
    checkpoint = true,
  ): Promise<void> {
    const dump = this.dumps.lastDumpOrNull();
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
    this.dumps.inputSent();
    await this.act(act, () => this.adb.tap(point.x, point.y, target));
    this.clock.counters.taps += 1;
  }
}

function kindOf(dump: UiDump, profile: PddProfile): string | null {
  try {
    return classify(dump, profile).kind;
  } catch {
    return null;
  }
}
