import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import jpeg from 'jpeg-js';
import { freePort } from '../../platform/network';
import type { PhoneSim } from './index';
import { FRAME_INTERVAL_MS } from './screen/minicap';
import { dump, one, putPhone, sh, tap, useTestSim, type DeviceClient } from './testkit';

let sim: PhoneSim;
let control: string;
let dev: DeviceClient;

useTestSim((rig) => ({ sim, control, dev } = rig));

const BIN = '/data/local/tmp/minicap';
const LIB = '/data/local/tmp/minicap.so';
const START = `LD_LIBRARY_PATH=/data/local/tmp ${BIN}`;
const PREBUILT = path.dirname(require.resolve('@devicefarmer/minicap-prebuilt/package.json'));

/** Everything a stream sends, read as it comes: a held shell's lines, minicap's banner and frames. */
class Reader {
  private buf = Buffer.alloc(0);
  private ended = false;
  private wake: (() => void) | null = null;

  constructor(readonly stream: Duplex) {
    stream.on('data', (d: Buffer) => {
      this.buf = Buffer.concat([this.buf, d]);
      this.wake?.();
    });
    const end = (): void => {
      this.ended = true;
      this.wake?.();
    };
    stream.on('end', end);
    stream.on('close', end);
    stream.on('error', end);
  }

  private async until(ready: () => boolean, ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (!ready()) {
      if (this.ended || Date.now() > deadline) return false;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        setTimeout(resolve, 50);
      });
    }
    return true;
  }

  async read(n: number, ms = 5000): Promise<Buffer> {
    if (!(await this.until(() => this.buf.length >= n, ms)))
      throw new Error(`wanted ${n} bytes, had ${this.buf.length}`);
    const chunk = this.buf.subarray(0, n);
    this.buf = this.buf.subarray(n);
    return chunk;
  }

  async frame(): Promise<Buffer> {
    const length = (await this.read(4)).readUInt32LE(0);
    return this.read(length);
  }

  async text(pattern: RegExp, ms = 5000): Promise<string> {
    await this.until(() => pattern.test(this.buf.toString()), ms);
    return this.buf.toString();
  }

  /** true once the peer has closed (or the wait ran out first: false) */
  closed(ms = 3000): Promise<boolean> {
    return this.until(() => false, ms).then(() => this.ended);
  }
}

async function push(local: string, remote: string): Promise<void> {
  const transfer = await dev.push(local, remote);
  await new Promise<void>((resolve, reject) => {
    transfer.on('end', resolve);
    transfer.on('error', reject);
  });
}

/** As a host does it: the build for the phone's ABI and API level, then `chmod 755`. */
async function pushMinicap(files: { lib?: boolean } = {}): Promise<void> {
  const abi = (await sh(dev, 'getprop ro.product.cpu.abi')).trim();
  const sdk = Number((await sh(dev, 'getprop ro.build.version.sdk')).trim());
  await push(path.join(PREBUILT, 'prebuilt', abi, 'bin', 'minicap'), BIN);
  if (files.lib !== false) await push(path.join(PREBUILT, 'prebuilt', abi, 'lib', `android-${sdk}`, 'minicap.so'), LIB);
  expect(await sh(dev, `chmod 755 ${BIN}`)).toBe('');
}

/** A held shell running minicap, once it said it serves. */
async function startMinicap(args = '-P 1080x2376@540x1188/0'): Promise<{ shell: Reader; pid: number }> {
  const shell = new Reader(await dev.shell(`${START} ${args}`));
  const said = await shell.text(/Publishing virtual display/);
  const pid = Number(/^PID: (\d+)$/m.exec(said)?.[1]);
  expect(said).toMatch(/^INFO: .*Using projection 1080x2376@540x1188\/0$/m);
  return { shell, pid };
}

async function viaForward(): Promise<{ reader: Reader; port: number }> {
  const port = await freePort();
  await dev.forward(`tcp:${port}`, 'localabstract:minicap');
  const sock = net.connect(port, '127.0.0.1');
  await new Promise((resolve) => sock.once('connect', resolve));
  return { reader: new Reader(sock), port };
}

function expectBanner(b: Buffer, pid: number): void {
  expect(b.length).toBe(24);
  expect(b.readUInt8(0)).toBe(1);
  expect(b.readUInt8(1)).toBe(24);
  expect(b.readUInt32LE(2)).toBe(pid);
  expect([b.readUInt32LE(6), b.readUInt32LE(10)]).toEqual([1080, 2376]);
  expect([b.readUInt32LE(14), b.readUInt32LE(18)]).toEqual([540, 1188]);
  expect(b.readUInt8(22)).toBe(0);
  expect(b.readUInt8(23)).toBe(0);
}

/** Frames until one differs from `before` (a tap's page drawn), or none within `n`. */
async function changedFrame(r: Reader, before: Buffer, n = 40): Promise<Buffer | null> {
  for (let i = 0; i < n; i++) {
    const f = await r.frame();
    if (!f.equals(before)) return f;
  }
  return null;
}

beforeEach(async () => {
  // the host streams minicap from phones of API 30 and below (the prebuilt libraries stop there)
  await putPhone(control, 'sim-phone-1', 'faults', { android_sdk: 30 });
});

describe('minicap', () => {
  test('pushed and started by a held shell, it serves banner and frames on openLocal and on a forward', async () => {
    await pushMinicap();
    expect(await sh(dev, `${START} -i`)).toMatch(/"width": 1080,\n {4}"height": 2376,/);
    const info = JSON.parse(await sh(dev, `${START} -i`)) as Record<string, unknown>;
    expect(info).toMatchObject({ id: 0, width: 1080, height: 2376, secure: false, rotation: 0 });
    expect(await sh(dev, 'wm size')).toBe('Physical size: 1080x2376\n');
    const pushed = path.join(PREBUILT, 'prebuilt', 'arm64-v8a', 'bin', 'minicap');
    const md5 = createHash('md5').update(fs.readFileSync(pushed)).digest('hex');
    expect(await sh(dev, `md5sum ${BIN}`)).toBe(`${md5}  ${BIN}\n`);
    expect(await sh(dev, 'md5sum /data/local/tmp/none')).toBe(
      'md5sum: /data/local/tmp/none: No such file or directory\n',
    );

    const { shell, pid } = await startMinicap();
    expect(await sh(dev, 'pidof minicap')).toBe(`${pid}\n`);

    const local = new Reader(await dev.openLocal('localabstract:minicap'));
    expectBanner(await local.read(24), pid);
    const frames = [await local.frame(), await local.frame(), await local.frame()];
    const image = jpeg.decode(frames[0] as Buffer, { useTArray: true });
    expect([image.width, image.height]).toEqual([540, 1188]);
    // the screen did not change: the same JPEG again, at a steady rate
    expect(frames[2]).toEqual(frames[0]);
    const t0 = Date.now();
    for (let i = 0; i < 5; i++) await local.frame();
    expect(Date.now() - t0).toBeGreaterThanOrEqual(4 * FRAME_INTERVAL_MS - 20);
    local.stream.end();
    expect(await local.closed()).toBe(true);

    // one client at a time, as minicap serves them: the forward's connection gets its own banner
    const { reader, port } = await viaForward();
    expectBanner(await reader.read(24), pid);
    const before = await reader.frame();
    const { all } = await dump(dev);
    await tap(
      dev,
      one(all, (n) => n.attrs.text === '拼多多' && n.attrs.clickable === 'true', 'the app icon'),
    );
    const after = await changedFrame(reader, before);
    expect(after).not.toBeNull();
    expect(jpeg.decode(after as Buffer, { useTArray: true }).width).toBe(540);
    expect((await dev.listForwards()).map((f: { remote: string }) => f.remote)).toContain('localabstract:minicap');

    // the shell's end is minicap's end: its socket goes and every viewer's connection with it
    shell.stream.end();
    expect(await reader.closed()).toBe(true);
    expect(await sh(dev, 'pidof minicap || echo none')).toBe('none\n');
    await expect(dev.openLocal('localabstract:minicap')).rejects.toThrow(/closed/);
    const again = net.connect(port, '127.0.0.1');
    expect(await new Reader(again).closed()).toBe(true);
  }, 30_000);

  test('refused before it is pushed, without its library or the execute bit, and with a bad -P', async () => {
    expect(await sh(dev, `${START} -P 1080x2376@540x1188/0`)).toBe(
      `/system/bin/sh: ${BIN}: inaccessible or not found\n`,
    );
    await pushMinicap({ lib: false });
    expect(await sh(dev, `${START} -P 1080x2376@540x1188/0`)).toMatch(
      /^CANNOT LINK EXECUTABLE "\/data\/local\/tmp\/minicap": library "minicap.so" not found/,
    );
    await pushMinicap();
    expect(await sh(dev, `${BIN} -P 1080x2376@540x1188/0`)).toMatch(/^CANNOT LINK EXECUTABLE/);
    await sh(dev, `chmod 644 ${BIN}`);
    expect(await sh(dev, `${START} -i`)).toBe(`/system/bin/sh: ${BIN}: can't execute: Permission denied\n`);
    await push(path.join(PREBUILT, 'prebuilt', 'x86_64', 'bin', 'minicap'), BIN);
    await sh(dev, `chmod +x ${BIN}`);
    expect(await sh(dev, `${START} -i`)).toBe(`/system/bin/sh: ${BIN}: can't execute: Exec format error\n`);
    await pushMinicap();
    for (const bad of ['1080x2376@540x1188', '1080x2376@540x1188/45', 'axb@cxd/0', '0x2376@540x1188/0'])
      expect(await sh(dev, `${START} -P ${bad}`)).toMatch(/^ERROR: invalid format for -P/);
    // nothing listens yet: adb refuses the stream, a forward's connection is closed at once
    await expect(dev.openLocal('localabstract:minicap')).rejects.toThrow(/closed/);
    const { reader } = await viaForward();
    expect(await reader.closed()).toBe(true);
  });

  test('kill or pkill stops it and ends its shell; a second one cannot take the socket', async () => {
    await pushMinicap();
    const first = await startMinicap();
    expect(await sh(dev, `${START} -P 1080x2376@540x1188/0`)).toMatch(/Unable to start server on namespace 'minicap'/);
    const local = new Reader(await dev.openLocal('localabstract:minicap'));
    expectBanner(await local.read(24), first.pid);
    expect(await sh(dev, `kill ${first.pid}`)).toBe('');
    expect(await first.shell.closed()).toBe(true);
    expect(await local.closed()).toBe(true);

    const second = await startMinicap();
    expect(second.pid).not.toBe(first.pid);
    expect(await sh(dev, 'pkill minicap && echo stopped')).toBe('stopped\n');
    expect(await second.shell.closed()).toBe(true);
    expect(await sh(dev, 'pkill minicap || echo none')).toBe('none\n');
    expect(await sh(dev, `kill ${second.pid}`)).toBe(`kill: ${second.pid}: No such process\n`);
  });

  test('-s writes one JPEG of the virtual size; a reset stops a running minicap', async () => {
    await pushMinicap();
    const shot = (await dev.shell(`${START} -P 1080x2376@360x792/0 -s 2>/dev/null`)) as Duplex;
    const chunks: Buffer[] = [];
    for await (const c of shot) chunks.push(c as Buffer);
    const image = jpeg.decode(Buffer.concat(chunks), { useTArray: true });
    expect([image.width, image.height]).toEqual([360, 792]);

    const { shell } = await startMinicap();
    sim.phone('sim-phone-1').reset();
    expect(await shell.closed()).toBe(true);
  });
});
