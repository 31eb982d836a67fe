import fs from 'node:fs';
import path from 'node:path';
import type { StepLog } from './step-log';

export interface FailureArtifacts {
  screenshot: Buffer | null;
  xml: string | null;
  steps: StepLog;
  error: { code: string; message: string };
}

/**
 * Failure evidence on the phone host (data/device/<id>/artifacts/<workflow id>/…): screenshot,
 * the last XML and the step log. The XML never leaves this machine (docs/architecture.md §5.3); the
 * path is reported so an operator knows where to look.
 */
export class ArtifactStore {
  constructor(
    readonly root: string,
    public retentionDays: number,
  ) {}

  save(workflowId: string, label: string, a: FailureArtifacts): string {
    const dir = path.join(
      this.root,
      safe(workflowId),
      `${new Date().toISOString().replace(/[:.]/g, '-')}-${safe(label)}`,
    );
    fs.mkdirSync(dir, { recursive: true });
    if (a.screenshot) fs.writeFileSync(path.join(dir, 'screen.png'), a.screenshot);
    if (a.xml) fs.writeFileSync(path.join(dir, 'window.xml'), a.xml);
    fs.writeFileSync(path.join(dir, 'steps.jsonl'), a.steps.toJsonLines());
    fs.writeFileSync(path.join(dir, 'error.json'), JSON.stringify(a.error, null, 2));
    return dir;
  }

  /** Removes workflow folders untouched for longer than the retention; returns how many. */
  cleanup(now = Date.now()): number {
    if (!fs.existsSync(this.root)) return 0;
    const cutoff = now - this.retentionDays * 86_400_000;
    let removed = 0;
    for (const entry of fs.readdirSync(this.root, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const dir = path.join(this.root, entry.name);
      if (fs.statSync(dir).mtimeMs < cutoff) {
        fs.rmSync(dir, { recursive: true, force: true });
        removed += 1;
      }
    }
    return removed;
  }
}

/** Workflow ids contain `/`; a folder name must not. */
function safe(s: string): string {
  return s.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 120);
}
