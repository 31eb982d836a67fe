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

/** Debian's fonts-noto-cjk: the phone simulator draws Chinese text in screencaps with this file (sim/phone/app/render-svg.ts). */
export const CJK_FONT_FILE = '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc';

/**
 * Installs the CJK font when it is missing and this runs as root with apt-get, as `npm test` does
 * for Chromium. Anything else only says what to install: the simulator then falls back to its
 * bitmap font (Chinese as boxes) rather than failing, so this never stops the start.
 */
export function ensureCjkFont(say = (l) => console.error(l)) {
  if (fs.existsSync(CJK_FONT_FILE)) return;
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  const apt = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
  if (!root || !apt) {
    say(
      '[setup] CJK font missing: phone screencaps will show Chinese as boxes; install the Debian package "fonts-noto-cjk"',
    );
    return;
  }
  say('[setup] installing the CJK font for phone screencaps (apt-get install fonts-noto-cjk) …');
  const r = spawnSync(
    'sh',
    [
      '-c',
      'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends fonts-noto-cjk >/dev/null',
    ],
    { stdio: 'inherit' },
  );
  if (r.status !== 0)
    say('[setup] installing fonts-noto-cjk failed; screencaps will show Chinese as boxes until it is installed');
}

/**
 * Installs Debian's ffmpeg when it is missing and this runs as root with apt-get, as the CJK
 * font: the phone simulator's scrcpy-server encodes its H.264 with it (sim/phone/screen/scrcpy-encoder.ts).
 * Without it a phone of API 31 or above streams by screencap instead, and the tests of the
 * scrcpy path fail (or are skipped when not root), so this never stops the start either.
 */
export function ensureFfmpeg(say = (l) => console.error(l)) {
  if (spawnSync('sh', ['-c', 'command -v ffmpeg'], { stdio: 'ignore' }).status === 0) return;
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  const apt = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
  if (!root || !apt) {
    say(
      '[setup] ffmpeg missing: simulated phones of API 31+ cannot serve scrcpy (H.264) and fall back to screencap; install the Debian package "ffmpeg"',
    );
    return;
  }
  say("[setup] installing ffmpeg for the simulator's scrcpy (apt-get install ffmpeg) …");
  const r = spawnSync(
    'sh',
    [
      '-c',
      'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ffmpeg >/dev/null',
    ],
    { stdio: 'inherit' },
  );
  if (r.status !== 0)
    say('[setup] installing ffmpeg failed; the scrcpy path of the simulator stays off until it is installed');
}

/**
 * dist/workflow-bundle.js, the workflow code the admin worker runs (docs/versioning.md);
 * `ifStale` keeps a bundle newer than its sources.
 */
export function bundleWorkflows({ ifStale = false } = {}) {
  const r = spawnSync(process.execPath, tsxArgs('scripts/bundle-workflows.ts', ifStale ? ['--if-stale'] : []), {
    cwd: ROOT,
    stdio: 'inherit',
  });
  return r.status === 0;
}
