import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'dist' || entry.name === 'node_modules') continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

/** Builds ui/dist when it is missing or older than any UI source, so `npm start` never serves a stale shell. */
export function ensureUiBuilt(root: string, say: (line: string) => void): void {
  const uiDir = path.join(root, 'ui');
  const built = path.join(uiDir, 'dist', 'index.html');
  const builtAt = fs.existsSync(built) ? fs.statSync(built).mtimeMs : 0;
  if (builtAt > newestMtime(uiDir)) return;
  say('building the operator UI (vite build) …');
  const r = spawnSync(
    process.execPath,
    [
      path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'),
      'build',
      '--config',
      'ui/vite.config.ts',
      '--logLevel',
      'warn',
    ],
    {
      cwd: root,
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  if (r.status !== 0) throw new Error('vite build failed (output above)');
}
