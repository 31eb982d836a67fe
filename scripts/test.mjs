// `npm test`: install what is missing, then typecheck, lint and run the whole jest suite against
// real parts (Temporal dev server, SQLite files, adbkit over TCP to the simulator, Chromium).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureCjkFont, ensureFfmpeg, ensureNodeModules, ROOT, tsxArgs } from './bootstrap.mjs';

const say = (line) => console.log(`[test] ${line}`);

function step(name, command, args, opts = {}) {
  say(`${name}: ${[command, ...args].join(' ')}`);
  const started = Date.now();
  const r = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit', ...opts });
  const ok = r.status === 0;
  say(
    `${name}: ${ok ? 'ok' : `FAILED (exit ${r.status ?? r.signal})`} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return ok;
}

/** Browser tests drive Debian's Chromium; install it when this machine lacks it (CI runs as root). */
function ensureChromium() {
  if (process.env.CMAUTOBUY_CHROMIUM || fs.existsSync('/usr/bin/chromium')) return;
  if (typeof process.getuid === 'function' && process.getuid() !== 0) {
    say(
      'Chromium missing and not root: browser tests will fail; install Debian package "chromium" or set CMAUTOBUY_CHROMIUM',
    );
    return;
  }
  step('chromium', 'sh', [
    '-c',
    'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium fonts-noto-cjk >/dev/null',
  ]);
}

ensureNodeModules();
ensureChromium();
ensureCjkFont();
ensureFfmpeg();

const bin = (name) => path.join(ROOT, 'node_modules', '.bin', name);
const results = [];
results.push(
  step('build ui', process.execPath, [
    path.join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'),
    'build',
    '--config',
    'ui/vite.config.ts',
    '--logLevel',
    'warn',
  ]),
);
// the production bundle: jest's global set-up loads this very file, and the replay test checks it
results.push(step('bundle workflows', process.execPath, tsxArgs('scripts/bundle-workflows.ts')));
results.push(step('typecheck', bin('tsc'), ['-p', 'tsconfig.json', '--noEmit']));
results.push(step('typecheck ui', bin('tsc'), ['-p', 'ui/tsconfig.json', '--noEmit']));
// `npm run build`'s own check: without jest's types, so a test helper beside the code must stay out of it
results.push(step('typecheck build', bin('tsc'), ['-p', 'tsconfig.build.json', '--noEmit']));
results.push(step('lint', bin('eslint'), ['.']));
// the folder rules and no cycles (.dependency-cruiser.cjs), as `npm run depcruise` runs them
results.push(step('dependency rules', 'npm', ['run', '--silent', 'depcruise']));
// nothing exported that nobody imports (knip.json names every entry point)
results.push(step('unused exports', bin('knip'), ['--no-progress']));
// one format for the whole tree (.prettierrc.json); `npm run format` applies it
results.push(step('format', bin('prettier'), ['--check', '--log-level', 'warn', '.']));

const report = path.join(os.tmpdir(), `cmautobuy-jest-${process.pid}.json`);
const jestOk = step('jest', bin('jest'), ['--ci', '--json', `--outputFile=${report}`, ...process.argv.slice(2)]);
results.push(jestOk);

let passed = 0;
let failed = 0;
try {
  const summary = JSON.parse(fs.readFileSync(report, 'utf8'));
  passed = summary.numPassedTests;
  failed = summary.numFailedTests + (summary.numRuntimeErrorTestSuites ?? 0);
  fs.rmSync(report, { force: true });
} catch {
  failed += 1;
}
const failedSteps = results.filter((ok) => !ok).length - (jestOk ? 0 : 1);
console.log(`${passed} passed, ${failed + failedSteps} failed`);
process.exit(results.every(Boolean) && failed === 0 ? 0 : 1);
