import { DefaultLogger, Runtime, type LogLevel } from '@temporalio/worker';
import type { Logger } from '../platform/logger';

let installed = false;

export interface TemporalRuntimeOptions {
  level?: LogLevel;
  /**
   * Where the SDK's own worker metrics (task slots, poll and schedule-to-start latencies,
   * workflow task failures) are served for Prometheus, at `/metrics`; unset = not served.
   * docs/operations.md lists the ones to alert on.
   */
  metrics?: { host: string; port: number };
}

/**
 * Sends the Temporal SDK's own log lines (worker state changes, poll errors) through our pino
 * logger instead of raw stderr, and optionally exports the SDK's worker metrics. The SDK allows
 * one install per process, before any worker.
 */
export function installTemporalRuntime(log: Logger, opts: TemporalRuntimeOptions = {}): void {
  if (installed) return;
  installed = true;
  Runtime.install({
    logger: new DefaultLogger(opts.level ?? 'WARN', (entry) => {
      const fields = { ...(entry.meta ?? {}), component: 'temporal-sdk' };
      const message = entry.message;
      switch (entry.level) {
        case 'ERROR':
          log.error(fields, message);
          break;
        case 'WARN':
          log.warn(fields, message);
          break;
        case 'INFO':
          log.info(fields, message);
          break;
        default:
          log.debug(fields, message);
      }
    }),
    ...(opts.metrics
      ? {
          telemetryOptions: {
            metrics: {
              // Prometheus conventions, so the names in docs/operations.md are what a scrape shows:
              // counters end in _total, durations are seconds with the unit in the name.
              prometheus: {
                bindAddress: bindAddress(opts.metrics),
                countersTotalSuffix: true,
                unitSuffix: true,
                useSecondsForDurations: true,
              },
            },
          },
        }
      : {}),
  });
  if (opts.metrics) log.info({ url: `http://${bindAddress(opts.metrics)}/metrics` }, 'Temporal SDK metrics served');
}

function bindAddress(m: { host: string; port: number }): string {
  return `${m.host.includes(':') ? `[${m.host}]` : m.host}:${m.port}`;
}
