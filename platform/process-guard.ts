/** The part of a pino logger the guard needs. */
export interface GuardLog {
  fatal(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
  flush?(cb?: (err?: Error) => void): void;
}

export interface ProcessGuardOptions {
  /**
   * After an exception nobody caught, the process's state is unknown (Node's own advice is to
   * stop), so the process always exits — after the log line is written. This decides only
   * about a rejected promise nobody awaited: `log` keeps serving (the process said, by its
   * design, that such a rejection cannot leave half-done state), `exit` stops as well.
   */
  unhandledRejection: 'log' | 'exit';
  /** bounded: the exit happens after this long even if the log cannot be flushed */
  flushTimeoutMs?: number;
}

/**
 * Turns what would be Node's crash dump on stderr into one JSON log line with the error, and
 * then either keeps going or exits 1 for the supervisor (`npm start`) to restart the process.
 */
export function installProcessGuard(log: GuardLog, opts: ProcessGuardOptions): void {
  let exiting = false;
  const exit = () => {
    if (exiting) return;
    exiting = true;
    const timer = setTimeout(() => process.exit(1), opts.flushTimeoutMs ?? 2000);
    timer.unref();
    if (log.flush) log.flush(() => process.exit(1));
    else process.exit(1);
  };
  process.on('uncaughtException', (err, origin) => {
    log.fatal({ err, origin }, 'uncaught exception; exiting so the supervisor restarts this process');
    exit();
  });
  process.on('unhandledRejection', (reason) => {
    if (opts.unhandledRejection === 'exit') {
      log.fatal({ err: reason }, 'unhandled promise rejection; exiting so the supervisor restarts this process');
      exit();
    } else {
      log.error({ err: reason }, 'unhandled promise rejection; still serving');
    }
  });
}
