// Plain JavaScript on purpose: this runs before node_modules (and so TypeScript) exists.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function mtime(file) {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

/** `npm ci` when node_modules is absent or older than the lock file — the only install step by hand is none. */
export function ensureNodeModules(say = (l) => console.error(l)) {
  const lock = path.join(ROOT, 'package-lock.json');
  const installed = path.join(ROOT, 'node_modules', '.package-lock.json');
  if (mtime(installed) >= mtime(lock) && fs.existsSync(path.join(ROOT, 'node_modules', '.bin', 'tsx'))) return;
  say('[setup] installing npm packages (npm ci) …');
  const r = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error('[setup] npm ci failed; fix the error above and run the command again.');
    process.exit(r.status ?? 1);
  }
  // npm ci does not touch the lock; make the marker newer so the next start skips this step.
  const now = new Date();
  fs.utimesSync(installed, now, now);
}

/** Runs a TypeScript entry with tsx's loader in this same Node (no extra process in between). */
export function tsxArgs(entry, args = []) {
  return ['--import', 'tsx', path.join(ROOT, entry), ...args];
}

/**
 * dist/workflow-bundle.js, the workflow code the admin worker runs (docs/versioning.md);
 * `ifStale` keeps a bundle newer than its sources.
 */
export function bundleWorkflows({ ifStale = false } = {}) {
  const r = spawnSync(process.execPath, tsxArgs('scripts/bundle-workflows.ts', ifStale ? ['--if-stale'] : []), { cwd: ROOT, stdio: 'inherit' });
  return r.status === 0;
}
