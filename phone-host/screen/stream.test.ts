import type { Duplex } from 'node:stream';
import { AdbDevice } from '../../device-worker/adb/adb-device';
import type { PhoneSim } from '../../sim/phone';
import { encoderMissing } from '../../sim/phone/screen/scrcpy-encoder';
import { api, putPhone, useTestSim } from '../../sim/phone/testkit';
import { minicapBuild } from './minicap';
import {
  chooseScreenPath,
  grabFrame,
  openScreenStream,
  parseSurfaceRotation,
  virtualSize,
  type ScreenStream,
} from './stream';

/**
 * The live screen's three paths on the simulator: repeated screencap (every phone), minicap (a
 * phone whose ABI and API level have a build) and scrcpy (API 21 on, no build). A fault sets the
 * API level each phone says: 30 has a build, 34 has none, 19 is below scrcpy (and the simulator's
 * arm64-v8a has no build that old).
 */
const SERIAL = 'sim-phone-1';
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47]);

let sim: PhoneSim;
let control: string;
useTestSim((rig) => ({ sim, control } = rig));

const adbOf = (serial = SERIAL): AdbDevice =>
  new AdbDevice({ host: '127.0.0.1', port: sim.adbPort, serial }, { reconnectMs: 500 });

/** A PNG's width and height, from its IHDR. */
function pngSize(png: Buffer): { width: number; height: number } {
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** A baseline JPEG's width and height, from its SOF0 segment. */
function jpegSize(jpeg: Buffer): { width: number; height: number } {
  let at = 2;
  while (at + 9 < jpeg.length) {
    const marker = jpeg.readUInt16BE(at);
    if (marker === 0xffc0 || marker === 0xffc2)
      return { width: jpeg.readUInt16BE(at + 7), height: jpeg.readUInt16BE(at + 5) };
    at += 2 + jpeg.readUInt16BE(at + 2);
  }
  throw new Error('no SOF segment');
}

/** Resolves once `n` frames came. */
function frames(n: number): { onFrame: (f: Buffer) => void; got: Buffer[]; done: Promise<Buffer[]> } {
  const got: Buffer[] = [];
  let resolve: (f: Buffer[]) => void = () => undefined;
  const done = new Promise<Buffer[]>((r) => (resolve = r));
  return {
    got,
    done,
    onFrame: (f) => {
      got.push(f);
      if (got.length === n) resolve(got);
    },
  };
}

const streams: ScreenStream[] = [];
afterEach(async () => {
  for (const s of streams.splice(0)) await s.stop();
});

describe('choosing the path', () => {
  it('has minicap builds by ABI and exact API level, in either package', () => {
    expect(minicapBuild('arm64-v8a', 30)?.lib).toMatch(/@devicefarmer.*arm64-v8a\/lib\/android-30\/minicap\.so$/);
    expect(minicapBuild('arm64-v8a', 30)?.bin).toMatch(/arm64-v8a\/bin\/minicap$/);
    expect(minicapBuild('x86_64', 32)?.lib).toMatch(/@u4.*x86_64\/lib\/android-32\/minicap\.so$/);
    expect(minicapBuild('armeabi-v7a', 15)?.bin).toMatch(/minicap-nopie$/);
    for (const [abi, sdk] of [
      ['arm64-v8a', 31],
      ['arm64-v8a', 33],
      ['mips', 30],
      ['../arm64-v8a', 30],
      ['arm64-v8a', Number.NaN],
    ] as const)
      expect(minicapBuild(abi, sdk)).toBeNull();
  });

  it('takes minicap where a build exists, else scrcpy from API 21, else screencap', () => {
    const build = minicapBuild('arm64-v8a', 30);
    expect(chooseScreenPath({ sdk: 30, abi: 'arm64-v8a', minicap: build }).path).toBe('minicap');
    expect(chooseScreenPath({ sdk: 34, abi: 'arm64-v8a', minicap: null })).toEqual({
      path: 'scrcpy',
      why: 'scrcpy: no minicap build for arm64-v8a API 34',
    });
    expect(chooseScreenPath({ sdk: 30, abi: 'mips', minicap: null }).path).toBe('scrcpy');
    expect(chooseScreenPath({ sdk: 19, abi: 'mips', minicap: null })).toEqual({
      path: 'screencap',
      why: 'screencap: no minicap build for mips API 19, and scrcpy needs API 21',
    });
  });

  it('scales the frame so the long side is at most 1280, or the width at most maxWidth', () => {
    expect(virtualSize({ width: 1080, height: 2376 })).toEqual({ width: 582, height: 1280 });
    expect(virtualSize({ width: 720, height: 1280 })).toEqual({ width: 720, height: 1280 });
    expect(virtualSize({ width: 1080, height: 2376 }, { maxWidth: 360 })).toEqual({ width: 360, height: 792 });
    expect(virtualSize({ width: 2376, height: 1080 })).toEqual({ width: 1280, height: 582 });
  });

  it('reads the rotation from dumpsys input', () => {
    expect(parseSurfaceRotation('  Viewport INTERNAL: …\n    SurfaceOrientation: 1\n')).toBe(90);
    expect(parseSurfaceRotation('SurfaceOrientation: 3')).toBe(270);
    expect(parseSurfaceRotation('')).toBe(0);
  });
});

describe('the screencap path', () => {
  beforeEach(() => putPhone(control, SERIAL, 'faults', { android_sdk: 19 }));

  it('streams PNG frames at the phone size until stopped', async () => {
    const want = frames(3);
    const stream = await openScreenStream(adbOf(), want.onFrame, { screencapFps: 10 });
    streams.push(stream);
    expect(stream.meta).toEqual({ codec: 'png', width: 1080, height: 2376, path: 'screencap' });
    expect(stream.why).toMatch(/no minicap build for arm64-v8a API 19, and scrcpy needs API 21/);
    for (const f of await want.done) {
      expect(f.subarray(0, 4)).toEqual(PNG);
      expect(pngSize(f)).toEqual({ width: 1080, height: 2376 });
    }
    await stream.stop();
    expect(await stream.ended).toBeNull();
    const after = want.got.length;
    await new Promise((r) => setTimeout(r, 300));
    expect(want.got.length).toBe(after);
  });

  it('keeps to its frame rate', async () => {
    const want = frames(1_000);
    const stream = await openScreenStream(adbOf(), want.onFrame, { screencapFps: 4 });
    streams.push(stream);
    await new Promise((r) => setTimeout(r, 1_100));
    await stream.stop();
    expect(want.got.length).toBeGreaterThanOrEqual(2);
    expect(want.got.length).toBeLessThanOrEqual(6);
  });

  it('ends with an error when the phone leaves ADB', async () => {
    const serial = 'sim-phone-screen';
    expect((await api(control, 'POST', '/devices', { serial })).status).toBe(201);
    await putPhone(control, serial, 'faults', { android_sdk: 19 });
    const want = frames(1);
    const stream = await openScreenStream(adbOf(serial), want.onFrame, { screencapFps: 10 });
    streams.push(stream);
    await want.done;
    await api(control, 'DELETE', `/devices/${serial}`);
    const err = await stream.ended;
    expect(err).toBeInstanceOf(Error);
    expect(err?.message).toMatch(new RegExp(serial));
  });

  it('grabs one frame at the phone size', async () => {
    const frame = await grabFrame(adbOf());
    expect(frame.contentType).toBe('image/png');
    expect(frame.body.subarray(0, 4)).toEqual(PNG);
    expect(pngSize(frame.body)).toEqual({ width: 1080, height: 2376 });
  });

  it('falls back to screencap when minicap does not start, and says why', async () => {
    await putPhone(control, SERIAL, 'faults', { android_sdk: 30 });
    class NoMinicap extends AdbDevice {
      override holdShell(command: string): Promise<Duplex> {
        if (command.includes('minicap')) return Promise.reject(new Error('minicap: not executable'));
        return super.holdShell(command);
      }
    }
    const want = frames(1);
    const stream = await openScreenStream(
      new NoMinicap({ host: '127.0.0.1', port: sim.adbPort, serial: SERIAL }),
      want.onFrame,
    );
    streams.push(stream);
    expect(stream.meta.path).toBe('screencap');
    expect(stream.why).toMatch(/minicap did not start \(minicap: not executable\)/);
    expect((await want.done)[0]?.subarray(0, 4)).toEqual(PNG);
  });
});

// Needs the simulator's minicap (a `minicap` the shell runs and its `localabstract:minicap` socket).
describe('the minicap path (the simulator serves minicap)', () => {
  it('pushes minicap, streams JPEG frames at the scaled size, and ends it on stop', async () => {
    await putPhone(control, SERIAL, 'faults', { android_sdk: 30 });
    const adb = adbOf();
    const want = frames(2);
    const stream = await openScreenStream(adb, want.onFrame, { minicapStartMs: 5_000 });
    streams.push(stream);
    expect(stream.why).toMatch(/^minicap: a build for arm64-v8a API 30/);
    // the phone's size (what an input's coordinates mean), the frames scaled to 582x1280
    expect(stream.meta).toEqual({ codec: 'jpeg', width: 1080, height: 2376, path: 'minicap' });
    for (const f of await want.done) {
      expect([f[0], f[1]]).toEqual([0xff, 0xd8]);
      expect(jpegSize(f)).toEqual({ width: 582, height: 1280 });
    }
    expect((await adb.shell('ls /data/local/tmp')).split(/\s+/)).toEqual(
      expect.arrayContaining(['minicap', 'minicap.so']),
    );
    await stream.stop();
    expect(await stream.ended).toBeNull();
    expect((await adb.shell('pidof minicap')).trim()).toBe('');
  });

  it('does not push minicap again to a phone that has this build', async () => {
    await putPhone(control, SERIAL, 'faults', { android_sdk: 30 });
    const pushes: string[] = [];
    class CountingAdb extends AdbDevice {
      override async push(contents: import('node:stream').Readable, remote: string, ms: number): Promise<void> {
        pushes.push(remote);
        await super.push(contents, remote, ms);
      }
    }
    const adb = new CountingAdb({ host: '127.0.0.1', port: sim.adbPort, serial: SERIAL });
    for (let i = 0; i < 2; i++) {
      const want = frames(1);
      const stream = await openScreenStream(adb, want.onFrame);
      await want.done;
      await stream.stop();
    }
    expect(pushes.filter((p) => p.endsWith('/minicap')).length).toBeLessThanOrEqual(1);
  });
});

// Needs the simulator's scrcpy-server (an `app_process` the shell runs, frames encoded by ffmpeg).
const ffmpeg = encoderMissing();
describe(`the scrcpy path (the simulator serves scrcpy 2.4)${ffmpeg ? ` — skipped: ${ffmpeg}` : ''}`, () => {
  const withEncoder = ffmpeg ? it.skip : it;
  const NAL_START = Buffer.from([0, 0, 0, 1]);

  withEncoder('streams H.264 from an API 34 phone: a key frame with SPS and PPS first, then the next', async () => {
    await putPhone(control, SERIAL, 'faults', { android_sdk: 34 });
    const adb = adbOf();
    const keys: boolean[] = [];
    const want = frames(3);
    const stream = await openScreenStream(adb, (f, key) => {
      keys.push(key === true);
      want.onFrame(f);
    });
    streams.push(stream);
    expect(stream.why).toBe('scrcpy: no minicap build for arm64-v8a API 34');
    // the phone's size (what an input's coordinates mean); the video itself is 584x1280
    expect(stream.meta).toEqual({ codec: 'h264', width: 1080, height: 2376, path: 'scrcpy' });
    const [first, second] = await want.done;
    expect(first?.subarray(0, 5)).toEqual(Buffer.concat([NAL_START, Buffer.from([0x67])]));
    expect(keys.slice(0, 3)).toEqual([true, false, false]);
    expect(second?.subarray(0, 4)).toEqual(NAL_START);
    expect((await adb.shell('ls /data/local/tmp')).split(/\s+/)).toContain('scrcpy-server.jar');
    await stream.stop();
    expect(await stream.ended).toBeNull();
    for (let i = 0; i < 20 && (await adb.shell('pidof app_process')).trim() !== ''; i++)
      await new Promise((r) => setTimeout(r, 100));
    expect((await adb.shell('pidof app_process')).trim()).toBe('');
  });

  it('falls back to screencap when scrcpy does not start, and says why', async () => {
    await putPhone(control, SERIAL, 'faults', { android_sdk: 34 });
    class NoScrcpy extends AdbDevice {
      override holdShell(command: string): Promise<Duplex> {
        if (command.includes('app_process')) return Promise.reject(new Error('app_process: not found'));
        return super.holdShell(command);
      }
    }
    const want = frames(1);
    const stream = await openScreenStream(
      new NoScrcpy({ host: '127.0.0.1', port: sim.adbPort, serial: SERIAL }),
      want.onFrame,
    );
    streams.push(stream);
    expect(stream.meta).toEqual({ codec: 'png', width: 1080, height: 2376, path: 'screencap' });
    expect(stream.why).toBe('screencap: scrcpy did not start (app_process: not found)');
    expect((await want.done)[0]?.subarray(0, 4)).toEqual(PNG);
  });
});
