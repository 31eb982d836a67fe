import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * adbkit runs `<bin> -P <port> start-server` when a connection is refused. With an `adb` on the
 * PATH that would leave a daemon on the port; ours must never run it, and the refusal must
 * surface as ADB_DISCONNECTED. Run in a child process, whose PATH (unlike jest's sandboxed
 * process.env) is the one adbkit's execFile sees.
 */
describe('no ADB server is ever started', () => {
  it('a refused connection is ADB_DISCONNECTED and no adb binary runs', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fake-adb-'));
    const marker = path.join(dir, 'ran');
    fs.writeFileSync(path.join(dir, 'adb'), `#!/bin/sh\necho "$@" > ${marker}\nexit 0\n`, { mode: 0o755 });
    const port = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    const code = `
      const { AdbDevice } = require(${JSON.stringify(path.resolve(__dirname, 'adb-device.ts'))});
      new AdbDevice({ host: '127.0.0.1', port: ${port}, serial: 'phone-x' }, { shellMs: 2000 })
        .ensureOnline(0)
        .then(() => console.log('ONLINE'), (e) => console.log('ERROR ' + e.code + ' ' + e.message));`;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '-e', code], {
      env: { ...process.env, PATH: `${dir}:${process.env.PATH}` },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.stdout).toMatch(/^ERROR ADB_DISCONNECTED .*connection refused/m);
    expect(fs.existsSync(marker)).toBe(false);
  });
});
