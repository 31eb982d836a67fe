import type { DeviceCounters } from '../domain/contracts/device-activities';

export type { DeviceCounters };

export function newCounters(): DeviceCounters {
  return { adb_round_trips: 0, dumps: 0, taps: 0, swipes: 0, keyevents: 0, wall_ms: 0 };
}

export class CounterClock {
  readonly counters = newCounters();
  private readonly started = Date.now();

  roundTrip(): void {
    this.counters.adb_round_trips += 1;
  }

  /** Wall time is taken at read, so a result always carries the time up to that moment. */
  snapshot(): DeviceCounters {
    return { ...this.counters, wall_ms: Date.now() - this.started };
  }
}
