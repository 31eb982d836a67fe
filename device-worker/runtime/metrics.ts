import { ApplicationFailure } from '@temporalio/common';
import { Counter, Histogram, type Registry } from 'prom-client';
import type { Logger } from '../../platform/logger';
import {
  createMetricsRegistry,
  DURATION_BUCKETS_SECONDS,
  serveMetrics,
  type MetricsListener,
} from '../../platform/metrics';
import { isDeviceFailureCode } from '../../domain/purchase/failures';
import type { DeviceCounters } from '../../domain/contracts/device-activities';

/**
 * One device worker's Prometheus metrics (docs/operations.md "Metrics"): what each activity
 * cost on the phone — dumps, taps, ADB round trips, wall time — and how it failed. The numbers
 * are the ones every activity already reports in its result or its failure details
 * (device-worker/counters.ts), so the metrics and the activity log never disagree. Labels are
 * the activity's name and a device error code: nothing about a task, a workflow or the goods.
 */
export class DeviceMetrics {
  readonly registry: Registry = createMetricsRegistry();
  private readonly dumps = this.counter(
    'cmautobuy_device_dumps_total',
    'uiautomator dumps taken by device activities',
    ['activity'],
  );
  private readonly taps = this.counter('cmautobuy_device_taps_total', 'Taps sent to the phone by device activities', [
    'activity',
  ]);
  private readonly roundTrips = this.counter(
    'cmautobuy_device_adb_round_trips_total',
    'ADB round trips of device activities',
    ['activity'],
  );
  private readonly adbErrors = this.counter(
    'cmautobuy_device_adb_errors_total',
    'Device activities that failed on ADB itself (disconnected, timed out, failed), by code',
    ['code'],
  );
  private readonly failures = this.counter(
    'cmautobuy_device_activity_failures_total',
    'Device activities that failed, by activity and device error code',
    ['activity', 'code'],
  );
  private readonly duration = new Histogram({
    name: 'cmautobuy_device_activity_duration_seconds',
    help: 'Wall time of device activities on this phone, by activity and outcome (ok | failed)',
    labelNames: ['activity', 'outcome'] as const,
    buckets: DURATION_BUCKETS_SECONDS,
    registers: [this.registry],
  });

  /**
   * The same activities, each call measured. Wrapping the functions keeps the Temporal worker
   * untouched: names, arguments, results and failures pass through as they are.
   */
  instrument<T extends object>(activities: T): T {
    const out: Record<string, unknown> = {};
    for (const [activity, fn] of Object.entries(activities)) {
      if (typeof fn !== 'function') {
        out[activity] = fn;
        continue;
      }
      out[activity] = async (...args: unknown[]) => {
        const end = this.duration.startTimer({ activity });
        try {
          const result: unknown = await (fn as (...a: unknown[]) => unknown).apply(activities, args);
          end({ outcome: 'ok' });
          this.countPhoneWork(activity, (result as { counters?: unknown } | null)?.counters);
          return result;
        } catch (err) {
          end({ outcome: 'failed' });
          const code = failureCode(err);
          this.failures.inc({ activity, code });
          if (code.startsWith('ADB_')) this.adbErrors.inc({ code });
          if (err instanceof ApplicationFailure)
            this.countPhoneWork(activity, (err.details?.[0] as { counters?: unknown } | undefined)?.counters);
          throw err;
        }
      };
    }
    return out as T;
  }

  /** Serves `GET /metrics` on a listener of its own (the device worker has no HTTP server). */
  serve(opts: { host: string; port: number; log: Logger }): Promise<MetricsListener> {
    return serveMetrics({ registry: this.registry, ...opts });
  }

  /** Every phone activity reports its work as `DeviceCounters` (domain/contracts/device-activities.ts). */
  private countPhoneWork(activity: string, counters: unknown): void {
    if (!counters || typeof counters !== 'object') return;
    const c = counters as Partial<Record<keyof DeviceCounters, unknown>>;
    const add = (metric: Counter<'activity'>, value: unknown) => {
      if (typeof value === 'number' && Number.isFinite(value) && value > 0) metric.inc({ activity }, value);
    };
    add(this.dumps, c.dumps);
    add(this.taps, c.taps);
    add(this.roundTrips, c.adb_round_trips);
  }

  private counter<L extends string>(name: string, help: string, labelNames: readonly L[]): Counter<L> {
    return new Counter({ name, help, labelNames, registers: [this.registry] });
  }
}

/** A device error code from the closed list, or `OTHER`: a failure's type is free text otherwise. */
function failureCode(err: unknown): string {
  const type = err instanceof ApplicationFailure ? err.type : undefined;
  return type && isDeviceFailureCode(type) ? type : 'OTHER';
}
