import { DeviceError } from '../../errors';
import type { StepLog } from '../../step-log';
import type { Interruptions } from '../interruptions';
import type { PddProfile } from '../profile';
import { classify, screenError, type Screen } from '../screens';
import type { DumpCache } from './dumps';
import type { SessionInputs } from './inputs';
import { redumpPauseMs, sleep, type SessionTiming } from './timing';

/** A judge's "not yet": the screen is on its way (look again), not wrong. */
export const WAIT = Symbol('wait');
type Judged<T> = T | typeof WAIT;

/**
 * The session's screen proofs: an action is proven only by a dump its judge accepts. Only what
 * cannot be the proof yet — the loading marker, a failed dump, a stale dump (identical to the
 * phone's last one) — is looked at again, within a bound of dumps and time; a profiled
 * interstitial gets its one close tap before the fence (../interruptions.ts).
 */
export class ScreenWaits {
  constructor(
    private readonly profile: PddProfile,
    private readonly steps: StepLog,
    private readonly timing: SessionTiming,
    private readonly dumps: DumpCache,
    private readonly inputs: SessionInputs,
    private readonly interruptions: Interruptions,
  ) {}

  /**
   * Dumps until `judge` accepts the screen. Loading screens, failed dumps and a dump identical
   * to the previous one (stale) are re-dumped after a pause — unless it shows a page a person must
   * clear, which ends the wait with that page's reason; `undefined` from judge is a wrong
   * screen and ends the wait at once; every dump is counted.
   */
  async waitFor<T>(
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
      const got = await this.dumps.dump();
      if (got === 'failed') {
        last = 'a failed dump';
      } else if (got.stale && (expectChange || staleGrace > 0)) {
        // A page only a person clears (logged out, a captcha, a risk check) is that page on every
        // read: unchanged since the last read it is still there, never just a stale tree.
        const page = classify(got.dump, this.profile);
        if (page.kind === 'stop_page') throw screenError(page, what);
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
            await this.inputs.tapAt('close_popup', close, close.label);
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
      await sleep(redumpPauseMs(this.timing, again));
      again += 1;
    }
    throw new DeviceError('SCREEN_TIMEOUT', `waited for ${what}: ${last} after ${this.timing.maxDumpsPerWait} dumps`);
  }
}
