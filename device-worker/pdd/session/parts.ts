import type { AdbDevice } from '../../adb/adb-device';
import type { CounterClock } from '../../counters';
import type { StepLog } from '../../step-log';
import { Interruptions } from '../interruptions';
import type { PddProfile } from '../profile';
import { DumpCache, type DumpMemory } from './dumps';
import { SessionInputs } from './inputs';
import type { SessionTiming } from './timing';
import { ScreenWaits } from './waits';

/**
 * What the actions of one session share (../session.ts is its public face): one phone, one
 * profile, one dump cache, the inputs that go through it, the screen proofs that read it, the
 * interruption rules and which panels it opened. Built once per session, so every action of
 * the session sees the same last dump and the same counts.
 */
export interface SessionParts {
  readonly adb: AdbDevice;
  readonly profile: PddProfile;
  readonly clock: CounterClock;
  readonly steps: StepLog;
  readonly timing: SessionTiming;
  readonly dumps: DumpCache;
  readonly inputs: SessionInputs;
  readonly waits: ScreenWaits;
  readonly interruptions: Interruptions;
  /** the panels this session opened (numbered from 1) and those that had their one reveal swipe */
  readonly panels: { opened: number; readonly revealed: Set<number> };
}

export function createSessionParts(
  adb: AdbDevice,
  profile: PddProfile,
  clock: CounterClock,
  steps: StepLog,
  timing: SessionTiming,
  memory: DumpMemory,
): SessionParts {
  const interruptions = new Interruptions(profile, steps);
  const dumps = new DumpCache(adb, clock, steps, memory);
  const inputs = new SessionInputs(adb, profile, clock, dumps);
  const waits = new ScreenWaits(profile, steps, timing, dumps, inputs, interruptions);
  return {
    adb,
    profile,
    clock,
    steps,
    timing,
    dumps,
    inputs,
    waits,
    interruptions,
    panels: { opened: 0, revealed: new Set() },
  };
}
