// `npm start`: install what is missing, bundle the workflows if they changed, then run the embedded system (scripts/supervisor.ts).
import { spawn } from 'node:child_process';
import { bundleWorkflows, ensureCjkFont, ensureFfmpeg, ensureNodeModules, ROOT, tsxArgs } from './bootstrap.mjs';

ensureNodeModules();
ensureCjkFont();
ensureFfmpeg();
if (!bundleWorkflows({ ifStale: true })) process.exit(1);
const child = spawn(process.execPath, tsxArgs('scripts/supervisor.ts', process.argv.slice(2)), {
  cwd: ROOT,
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => child.kill(signal));
}
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
