import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { running } from './process-tree';

/**
 * A process whose parent is SIGKILLed notices and runs its `gone` (here: writes a file and
 * exits), as a device worker does when its phone host is killed.
 */
describe('onParentGone', () => {
  it('fires once the parent is killed, not before', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parent-watch-'));
    const out = path.join(dir, 'gone');
    const child = path.join(dir, 'child.ts');
    fs.writeFileSync(
      child,
      `import fs from 'node:fs';
import { onParentGone } from ${JSON.stringify(path.join(__dirname, 'parent-watch'))};
onParentGone(() => { fs.writeFileSync(${JSON.stringify(out)}, String(process.pid)); process.exit(0); }, 50);
console.log('ready ' + process.pid);
setInterval(() => undefined, 1000);
`,
    );
    // the parent starts the child and stays until it is killed
    const parent = spawn(
      process.execPath,
      [
        '-e',
        `const c = require('node:child_process').spawn(process.execPath, ['--import', 'tsx', ${JSON.stringify(child)}], { stdio: ['ignore', 'inherit', 'inherit'] });
         setInterval(() => undefined, 1000);`,
      ],
      { cwd: path.resolve(__dirname, '..'), stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const childPid = await new Promise<number>((resolve) =>
      parent.stdout.on('data', (d: Buffer) => {
        const m = /ready (\d+)/.exec(d.toString());
        if (m) resolve(Number(m[1]));
      }),
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(fs.existsSync(out)).toBe(false);
    parent.kill('SIGKILL');
    for (let i = 0; i < 200 && !fs.existsSync(out); i++) await new Promise((r) => setTimeout(r, 50));
    expect(fs.readFileSync(out, 'utf8')).toBe(String(childPid));
    for (let i = 0; i < 100 && running(childPid); i++) await new Promise((r) => setTimeout(r, 50));
    expect(running(childPid)).toBe(false);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
