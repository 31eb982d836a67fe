/**
 * What one activity cost on the phone. Dumps dominate a real device's time (1.5–3 s each), so
 * they are counted separately from the other ADB round trips; benchmarks and the admin read
 * these numbers from the activity result and the log.
 */
export interface DeviceCounters {
  adb_round_trips: number;
  dumps: number;
  taps: number;
  swipes: number;
  keyevents: number;
  wall_ms: number;
}

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
