/** What a device activity did, step by step: written next to the screenshot when it fails. */
export interface StepEntry {
  at: string;
  step: string;
  details?: Record<string, unknown>;
}

export class StepLog {
  readonly entries: StepEntry[] = [];

  add(step: string, details?: Record<string, unknown>): void {
    this.entries.push({ at: new Date().toISOString(), step, ...(details ? { details } : {}) });
  }

  toJsonLines(): string {
    return this.entries.map((e) => JSON.stringify(e)).join('\n') + '\n';
  }
}
