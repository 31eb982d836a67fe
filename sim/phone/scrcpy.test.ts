import path from 'node:path';
import type { Duplex } from 'node:stream';
import { encoderMissing } from './screen/scrcpy-encoder';
import { videoSize } from './screen/scrcpy-server';
import { putPhone, sh, useTestSim, type DeviceClient } from './testkit';

/**
 * The simulator's scrcpy-server 2.4 through adbkit, as a host drives it: the jar pushed, started
 * by a held shell, its video socket read on `localabstract:scrcpy_<scid>`. The frames come from
 * ffmpeg (`npm test` installs Debian's package when it runs as root).
 */
let control: string;
let dev: DeviceClient;
useTestSim((rig) => ({ control, dev } = rig));

const JARS = path.join(path.dirname(require.resolve('@u4/minicap-prebuilt')), 'prebuilt', 'scrcpy');
const JAR = '/data/local/tmp/scrcpy-server.jar';
const SCID = '0000abcd';
const start = (version = '2.4', extra = ''): string =>
  `CLASSPATH=${JAR} app_process / com.genymobile.scrcpy.Server ${version} scid=${SCID} log_level=info ` +
  `tunnel_forward=true audio=false control=false cleanup=false max_size=1280${extra}`;

async function push(version: string): Promise<void> {
  const transfer = await dev.push(path.join(JARS, `scrcpy-server-v${version}.jar`), JAR);
  await new Promise<void>((resolve, reject) => {
    transfer.on('end', resolve);
    transfer.on('error', reject);
  });
}

/** Reads exactly as asked from a stream, waiting for what has not come yet. */
class Reader {
  private buf = Buffer.alloc(0);
  private wake: (() => void) | null = null;
  ended = false;
  constructor(readonly stream: Duplex) {
    stream.on('data', (d: Buffer) => {
      this.buf = Buffer.concat([this.buf, d]);
      this.wake?.();
    });
    for (const e of ['end', 'close', 'error']) stream.on(e, () => ((this.ended = true), this.wake?.()));
  }
  async read(n: number, ms = 10_000): Promise<Buffer> {
    const deadline = Date.now() + ms;
    while (this.buf.length < n) {
      if (this.ended || Date.now() > deadline) throw new Error(`wanted ${n} bytes, had ${this.buf.length}`);
      await new Promise<void>((r) => ((this.wake = r), setTimeout(r, 50)));
    }
    const out = this.buf.subarray(0, n);
    this.buf = this.buf.subarray(n);
    return out;
  }
  text(): string {
    return this.buf.toString();
  }
}

/** The socket once the server listens (the service says `closed` before). */
async function openVideo(): Promise<Reader> {
  for (let i = 0; i < 40; i++) {
    try {
      return new Reader(await dev.openLocal(`localabstract:scrcpy_${SCID}`));
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error('scrcpy never listened');
}

const nalTypes = (annexB: Buffer): number[] => {
  const types: number[] = [];
  for (let i = 0; i + 3 < annexB.length; i++)
    if (annexB[i] === 0 && annexB[i + 1] === 0 && annexB[i + 2] === 1) types.push((annexB[i + 3] as number) & 0x1f);
  return types;
};

const ffmpeg = encoderMissing();
const withEncoder = ffmpeg ? test.skip : test;

beforeEach(() => putPhone(control, 'sim-phone-1', 'faults', { android_sdk: 34 }));

test('the video size is the screen scaled to max_size in multiples of 8, as the server computes it', () => {
  expect(videoSize({ width: 1080, height: 2376 }, 1280)).toEqual({ width: 584, height: 1280 });
  expect(videoSize({ width: 1080, height: 2376 }, 0)).toEqual({ width: 1080, height: 2376 });
  expect(videoSize({ width: 2376, height: 1080 }, 800)).toEqual({ width: 800, height: 360 });
});

withEncoder(
  `pushed and started, it streams H.264: dummy byte, name, codec meta, config then frames${ffmpeg ? ` (skipped: ${ffmpeg})` : ''}`,
  async () => {
    await push('2.4');
    const shell = new Reader(await dev.shell(start()));
    const video = await openVideo();
    expect((await video.read(1))[0]).toBe(0);
    const name = await video.read(64);
    expect(name.subarray(0, name.indexOf(0)).toString()).toBe('SIM 1080x2376');
    const meta = await video.read(12);
    expect(meta.subarray(0, 4).toString('latin1')).toBe('h264');
    expect([meta.readUInt32BE(4), meta.readUInt32BE(8)]).toEqual([584, 1280]);
    const packets: { flags: bigint; data: Buffer }[] = [];
    for (let i = 0; i < 4; i++) {
      const head = await video.read(12);
      packets.push({ flags: head.readBigUInt64BE(0) >> 62n, data: await video.read(head.readUInt32BE(8)) });
    }
    // the config packet (bit 63) carries SPS and PPS; then a key frame (bit 62) with an IDR slice
    expect(packets[0]?.flags).toBe(2n);
    expect(nalTypes(packets[0]!.data)).toEqual([7, 8]);
    expect(packets[1]?.flags).toBe(1n);
    expect(nalTypes(packets[1]!.data)).toContain(5);
    expect(packets.slice(2).map((p) => p.flags)).toEqual([0n, 0n]);
    expect(await sh(dev, 'pidof app_process')).toMatch(/^\d+\n$/);
    expect(shell.text()).toMatch(/\[server\] INFO: Device: \[Xiaomi\]/);

    // it serves one client and ends with it, as the real one does
    video.stream.end();
    for (let i = 0; i < 50 && !shell.ended; i++) await new Promise((r) => setTimeout(r, 100));
    expect(shell.ended).toBe(true);
    expect(await sh(dev, 'pidof app_process || echo none')).toBe('none\n');
  },
  30_000,
);

test('refuses another version, an old phone and a jar it does not know', async () => {
  await push('2.4');
  expect(await sh(dev, start('2.3'))).toMatch(/The server version \(2\.4\) does not match the client \(2\.3\)/);
  await push('2.7');
  expect(await sh(dev, start('2.4'))).toMatch(/The server version \(2\.7\) does not match the client \(2\.4\)/);
  await push('2.4');
  await putPhone(control, 'sim-phone-1', 'faults', { android_sdk: 19 });
  expect(await sh(dev, start())).toMatch(/needs Android 5\.0, API 21/);
  expect(await sh(dev, `CLASSPATH=/data/local/tmp/none.jar app_process / com.genymobile.scrcpy.Server 2.4`)).toMatch(
    /ClassNotFoundException: com\.genymobile\.scrcpy\.Server/,
  );
});
