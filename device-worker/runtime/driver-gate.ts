/**
 * One driver per phone inside this process. `maxConcurrentActivityTaskExecutions: 1` holds only
 * within one Worker; after a reconnect a new Worker would start the next activity while an
 * activity of the old one (which the SDK cannot stop, only ask to cancel) still taps the phone.
 * Every activity runs through this gate, and a new Worker is created only once it is idle.
 */
export class DriverGate {
  private tail: Promise<unknown> = Promise.resolve();
  private running = 0;

  /** The same activities, each call waiting for the one before it to end. */
  wrap<A extends object>(activities: A): A {
    const wrapped: Record<string, unknown> = {};
    for (const [name, fn] of Object.entries(activities)) {
      wrapped[name] =
        typeof fn === 'function'
          ? (...args: unknown[]) =>
              this.exclusive(() => (fn as (...a: unknown[]) => Promise<unknown>).apply(activities, args))
          : fn;
    }
    return wrapped as A;
  }

  /** How many activities are running or waiting for the phone right now. */
  get busy(): number {
    return this.running;
  }

  /** Resolves once no activity is running or waiting. */
  async idle(): Promise<void> {
    while (this.running > 0) await this.tail;
  }

  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    this.running++;
    const run = this.tail.then(fn, fn);
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    this.tail = settled;
    void settled.then(() => this.running--);
    return run;
  }
}
