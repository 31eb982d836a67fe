import { DeviceError, isDeviceError } from '../errors';
import type { StepLog } from '../step-log';
import type { PddProfile } from './profile';
import { screenError, type Screen } from './screens';

type Interstitial = Extract<Screen, { kind: 'interstitial' }>;
type ClosePoint = NonNullable<Interstitial['close']>;

/**
 * What a session does when the app interrupts (docs/architecture.md §2.7). Before the fence
 * (`close`): a profiled interstitial is closed — one tap on its one close control, at most
 * `maxInterstitials` per session — and a stop page, an unprofiled overlay or an interstitial that
 * cannot be closed is its stop. After the fence (`read`): nothing is closed; the screen goes to
 * the caller's judgement as it is. A network error page gets one re-open of the goods link per
 * session, by intent.
 */
export class Interruptions {
  private mode: 'close' | 'read' = 'close';
  /** the final panel is up: a popup over it is never closed by a tap, it is the purchase's stop */
  private finalPanel = false;
  private closed = 0;
  private reopened = false;

  constructor(
    private readonly profile: PddProfile,
    private readonly steps: StepLog,
  ) {}

  readOnly(): void {
    this.mode = 'read';
  }

  /**
   * The final panel takes no tap but the one submit (and the safe exit): from here until `false`
   * an interstitial is not closed — it goes to the caller's judgement, which stops.
   */
  onFinalPanel(on: boolean): void {
    this.finalPanel = on;
  }

  /**
   * The close control to tap for `screen` (its step already logged), null when the screen goes
   * to the caller's judgement; throws the stop when it is one.
   */
  toClose(screen: Screen, waitingFor: string): ClosePoint | null {
    if (this.mode === 'read' || this.finalPanel) return null;
    if (screen.kind === 'stop_page' || screen.kind === 'overlay') throw screenError(screen, waitingFor);
    if (screen.kind !== 'interstitial') return null;
    if (!screen.close) throw screenError(screen, waitingFor);
    if (this.closed >= this.profile.maxInterstitials)
      throw new DeviceError(
        screen.stopCode,
        `interstitial ${screen.name} appeared after ${this.closed} were closed; at most ${this.profile.maxInterstitials} per purchase`,
        { interstitial: screen.name },
      );
    this.closed += 1;
    this.steps.add('dismiss_interstitial', {
      name: screen.name,
      tap: { x: screen.close.x, y: screen.close.y },
      control: screen.close.node.text || screen.close.node.contentDesc,
      count: this.closed,
      waiting_for: waitingFor,
    });
    return screen.close;
  }

  /** True when `err` is the network error page and the one re-open is still unused (now used). */
  mayReopen(err: unknown): boolean {
    if (!isDeviceError(err) || err.code !== 'NETWORK_ERROR' || this.reopened) return false;
    this.reopened = true;
    return true;
  }
}
