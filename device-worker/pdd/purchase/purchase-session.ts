import { DeviceError } from '../../errors';
import { readPanelState, type PanelState } from '../panel-state';
import type { AdbDevice } from '../../adb/adb-device';
import type { CounterClock } from '../../counters';
import type { StepLog } from '../../step-log';
import type { PddProfile } from '../profile';
import { PddSession, type DumpMemory, type OpenPanel, type SessionTiming } from '../session';
import { waitForPanel } from '../session/panel';
import { WAIT } from '../session/waits';
import { parseUiDump, type UiDump, type UiNode } from '../ui-xml';
import { readStepper } from './final-panel';
import type { PurchaseProfile } from './profile';
import { classify, type Screen } from '../screens';

/**
 * The collect session's vocabulary plus the three actions a purchase adds: one quantity step,
 * a read-only re-read of the final panel, and the one submit tap (which the guard lets through
 * only with submitOnce's permit). Still no coordinate from a caller: every point comes from a
 * node this session read.
 */
export class PurchaseSession extends PddSession {
  private purchaseProfile: PurchaseProfile | null = null;

  constructor(
    private readonly phone: AdbDevice,
    profile: PddProfile,
    clock: CounterClock,
    steps: StepLog,
    timing?: SessionTiming,
    memory?: DumpMemory,
  ) {
    super(phone, profile, clock, steps, timing, memory);
  }

  /** Read-only navigation by intent (no tap): the orders list, 待付款 tab. */
  async openPendingOrders(): Promise<{ screen: Screen; dump: UiDump }> {
    this.steps.add('open_orders', { url: this.pp.pendingOrdersUrl });
    await this.parts.inputs.send('open_orders', () => this.phone.startView(this.pp.pendingOrdersUrl));
    return this.readScreen('the orders list', (s) => s.kind === 'orders');
  }

  setPurchaseProfile(pp: PurchaseProfile): void {
    this.purchaseProfile = pp;
  }

  private get pp(): PurchaseProfile {
    if (!this.purchaseProfile) throw new DeviceError('APP_VERSION_UNSUPPORTED', 'no purchase profile');
    return this.purchaseProfile;
  }

  /** The last dump, parsed again (no ADB round trip). */
  lastDump(): UiDump {
    const xml = this.lastXml();
    if (xml === null) throw new DeviceError('UNEXPECTED_SCREEN', 'nothing dumped yet');
    return parseUiDump(xml);
  }

  /** One tap on `+`/`-` as the last dump shows it; the selection must not move. 'disabled' = not tapped. */
  async stepQuantity(panel: OpenPanel, which: 'plus' | 'minus'): Promise<PanelState | 'disabled' | 'missing'> {
    const stepper = readStepper(this.lastDump(), this.profile, this.pp, which);
    if (!stepper) return 'missing';
    if (!stepper.enabled) return 'disabled';
    // a picture waiting for its check (Gate 1's) is checked by the read-back below when it shows
    // exactly this step: the same selection, the count one further — no dump of its own
    const selection = [...panel.state.selection];
    const next = String(Number(panel.state.view.count) + (which === 'plus' ? 1 : -1));
    this.parts.dumps.across((dump) => {
      try {
        const s = classify(dump, this.profile);
        if (s.kind !== 'sku_panel') return false;
        const st = readPanelState(s.panel, panel.names, this.profile, selection);
        return st.view.count === next && st.selection.every((v, d) => v === selection[d]);
      } catch {
        return false;
      }
    });
    this.steps.add('quantity', { which, tap: { x: stepper.point.x, y: stepper.point.y } });
    await this.parts.inputs.tapAt('quantity_tap', stepper.point, `quantity ${which}`);
    const count = panel.state.view.count;
    panel.state = await waitForPanel(
      this.parts,
      panel,
      `quantity ${which}`,
      [...panel.state.selection],
      undefined,
      (s) => s.view.count !== count,
    );
    return panel.state;
  }

  /** Read-only: a fresh dump of the same panel, no input before it. */
  async rereadPanel(panel: OpenPanel): Promise<PanelState> {
    this.steps.add('reread_panel');
    panel.state = await this.parts.waits.waitFor('the final panel', false, (s) =>
      s.kind === 'sku_panel' ? readPanelState(s.panel, panel.names, this.profile, panel.state.selection) : undefined,
    );
    return panel.state;
  }

  /** The one irreversible tap. The guard refuses it unless submitOnce armed its permit for this point. */
  async tapSubmit(point: { x: number; y: number; node: UiNode }): Promise<void> {
    this.steps.add('submit_tap', { tap: { x: point.x, y: point.y } });
    await this.parts.inputs.tapAt('submit_tap', point, this.pp.text.submitLabel, false);
  }

  /**
   * Read-only: dumps (loading re-dumped within the bound) until a screen other than loading shows.
   * `afterNavigation`: the screen was just left for another (the submit tap), so a first dump
   * identical to the phone's last one may be stale — it is dumped again once, and a second
   * identical one is the screen (an observe retried on the page it already read).
   */
  async readScreen(
    what: string,
    accept: (s: Screen) => boolean = () => true,
    afterNavigation = false,
  ): Promise<{ screen: Screen; dump: UiDump }> {
    const screen = await this.parts.waits.waitFor<Screen>(
      what,
      false,
      (s) => (accept(s) ? s : WAIT),
      afterNavigation ? 1 : 0,
    );
    return { screen, dump: this.lastDump() };
  }
}
