import { DefaultLogger, Runtime, type LogLevel } from '@temporalio/worker';
import type { Logger } from '../platform/logger';

let installed = false;

/**
 * Sends the Temporal SDK's own log lines (worker state changes, poll errors) through our pino
 * logger instead of raw stderr. The SDK allows one install per process, before any worker.
 */
export function installTemporalRuntime(log: Logger, level: LogLevel = 'WARN'): void {
  if (installed) return;
  installed = true;
  Runtime.install({
    logger: new DefaultLogger(level, (entry) => {
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
  });
}
