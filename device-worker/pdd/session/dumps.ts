import { createHash } from 'node:crypto';
import type { AdbDevice } from '../../adb/adb-device';
import type { CounterClock } from '../../counters';
import { DeviceError } from '../../errors';
import type { StepLog } from '../../step-log';
import { parseUiDump, type UiDump } from '../ui-xml';
import { activityCheckpoint } from './checkpoint';

/**
 * Told of every dump and asked before every input (the evidence camera, ../purchase/camera.ts):
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

/** A memory that lives as long as the session (outside an activity, which keeps it in the ledger). */
export function memoryDumpMemory(): DumpMemory {
  let last: string | null = null;
  return { get: () => last, set: (h) => (last = h) };
}

/** One dump: the screen, and whether it is identical to the phone's last one (then it proves nothing new). */
type DumpResult = { dump: UiDump; stale: boolean } | 'failed';

/** uiautomator's answer when the app never went idle within its wait (10 s on a phone). */
const NEVER_IDLE = /could not get idle state/;

/**
 * The session's only eyes and its memory of what they saw: every dump goes through here, is
 * counted, compared with the phone's last one and shown to the witness. The inputs are counted
 * here too, because the last dump is the screen only while no input followed it.
 */
export class DumpCache {
  private last: UiDump | null = null;
  private dumps = 0;
  /** inputs sent, counted before each is sent (one that failed may still have reached the phone) */
  private inputs = 0;
  private inputsAtLastDump = 0;
  private witness: DumpWitness | null = null;
  /**
   * Set by the first dump uiautomator refused because the screen never goes idle (a countdown, an
   * animation): asking again costs the same wait and gets the same answer, and the last tree is not
   * the screen now, so from then on the session neither dumps nor sends an input.
   */
  private neverIdle: DeviceError | null = null;

  constructor(
    private readonly adb: AdbDevice,
    private readonly clock: CounterClock,
    private readonly steps: StepLog,
    private readonly memory: DumpMemory,
  ) {}

  /**
   * One dump of the phone, a safe point (./checkpoint.ts) before it; a failed dump is logged, not
   * thrown — but a screen that never goes idle throws HIERARCHY_UNAVAILABLE, at its first refusal.
   */
  async dump(): Promise<DumpResult> {
    if (this.neverIdle) throw this.neverIdle;
    activityCheckpoint('a dump');
    this.clock.counters.dumps += 1;
    const out = await this.adb.dumpUi();
    if (out.kind === 'error') {
      this.steps.add('dump_failed', { message: out.message });
      if (NEVER_IDLE.test(out.message)) throw this.markNeverIdle(out.message);
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

  /** Read-only: one dump with no judgement; null when it failed. */
  async look(): Promise<UiDump | null> {
    const got = await this.dump();
    return got === 'failed' ? null : got.dump;
  }

  /** The last dump as parsed; null before the first. */
  lastDumpOrNull(): UiDump | null {
    return this.last;
  }

  lastXml(): string | null {
    return this.last?.xml ?? null;
  }

  private markNeverIdle(message: string): DeviceError {
    this.steps.add('never_idle', { dumps: this.dumps, inputs: this.inputs });
    this.neverIdle = new DeviceError(
      'HIERARCHY_UNAVAILABLE',
      `uiautomator could not read the screen (${message}): it never goes idle; nothing is decided on an older dump`,
    );
    return this.neverIdle;
  }

  /** Counts of dumps and inputs so far, and the inputs when the last dump was made. */
  marks(): { dumps: number; inputs: number; inputsAtLastDump: number } {
    return { dumps: this.dumps, inputs: this.inputs, inputsAtLastDump: this.inputsAtLastDump };
  }

  /**
   * Counted before the input is sent: one that failed may still have reached the phone. Refused
   * once a dump was: no input follows a screen the session cannot read.
   */
  inputSent(): void {
    if (this.neverIdle) throw this.neverIdle;
    this.inputs += 1;
  }

  setWitness(witness: DumpWitness | null): void {
    this.witness = witness;
  }

  /** true while the witness waits for a dump of the screen as it is */
  witnessWaiting(): boolean {
    return this.witness?.waiting() ?? false;
  }

  /** The next input's effect is known: see DumpWitness.across. */
  across(shows: (dump: UiDump) => boolean): void {
    this.witness?.across(shows);
  }
}
