import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import type { AdbDevice } from '../../device-worker/adb/adb-device';
import { describeError } from '../../platform/errors';
import { MinicapFrameReader, type MinicapBanner } from './minicap-protocol';

/**
 * minicap (DeviceFarmer's screen streamer): a native binary plus a `minicap.so` built for the
 * phone's ABI and exact API level, pushed to /data/local/tmp and run from a held shell; it serves
 * JPEG frames on the abstract socket `minicap`, reached through ADB (no port on the phone).
 */
const REMOTE_DIR = '/data/local/tmp';
const REMOTE_BIN = `${REMOTE_DIR}/minicap`;
const REMOTE_LIB = `${REMOTE_DIR}/minicap.so`;
const SOCKET = 'localabstract:minicap';
const QUALITY = 70;

export interface MinicapBuild {
  bin: string;
  lib: string;
}

/**
 * The npm packages that carry builds, searched in order: DeviceFarmer's own (API ≤ 30) first,
 * then @u4's, which adds API 32. Their folders are `prebuilt/<abi>/bin/minicap` and
 * `prebuilt/<abi>/lib/android-<sdk>/minicap.so`.
 */
const PACKAGES: { name: string; root: () => string }[] = [
  {
    name: '@devicefarmer/minicap-prebuilt',
    root: () => path.dirname(require.resolve('@devicefarmer/minicap-prebuilt/package.json')),
  },
  // its `exports` hides package.json, so its main file says where it lies
  { name: '@u4/minicap-prebuilt', root: () => path.dirname(require.resolve('@u4/minicap-prebuilt')) },
];

/** The binary and library for this ABI and API level, or null when no package has that build. */
export function minicapBuild(abi: string, sdk: number): MinicapBuild | null {
  // the ABI is the phone's word: it names a folder only when it looks like one
  if (!/^[a-z0-9_-]+$/i.test(abi) || !Number.isInteger(sdk) || sdk < 1) return null;
  for (const pkg of PACKAGES) {
    let root: string;
    try {
      root = pkg.root();
    } catch {
      continue;
    }
    const lib = path.join(root, 'prebuilt', abi, 'lib', `android-${sdk}`, 'minicap.so');
    // before Android 4.1 (API 16) an executable could not be position independent
    const bin = path.join(root, 'prebuilt', abi, 'bin', sdk >= 16 ? 'minicap' : 'minicap-nopie');
    if (fs.existsSync(lib) && fs.existsSync(bin)) return { bin, lib };
  }
  return null;
}

export interface MinicapGeometry {
  /** the phone's real screen, natural orientation */
  width: number;
  height: number;
  /** degrees the screen is turned: 0, 90, 180, 270 */
  rotation: number;
  /** the frame size asked for, natural orientation */
  virtualWidth: number;
  virtualHeight: number;
}

export interface MinicapStream {
  banner: MinicapBanner;
  /** ends the socket, the held shell and minicap on the phone; `ended` then says null */
  stop(): Promise<void>;
  /** null once stopped; the error when the stream broke or minicap ended on its own */
  ended: Promise<Error | null>;
}

export interface MinicapOptions {
  /** how long minicap has to open its socket; default 5 s */
  startWaitMs?: number;
  /** one push; default 60 s */
  pushMs?: number;
  /** default: the build for the phone's ABI and API level */
  build?: MinicapBuild;
}

class MinicapError extends Error {
  override readonly name = 'MinicapError';
}

/**
 * Pushes minicap when the phone lacks this build, starts it for `geometry` and streams its JPEG
 * frames to `onFrame`. Throws when it did not start (the caller falls back to screencap).
 */
export async function startMinicap(
  adb: AdbDevice,
  geometry: MinicapGeometry,
  onFrame: (frame: Buffer) => void,
  opts: MinicapOptions = {},
): Promise<MinicapStream> {
  const build = opts.build ?? (await phoneBuild(adb));
  await pushIfChanged(adb, build.bin, REMOTE_BIN, opts.pushMs ?? 60_000);
  await pushIfChanged(adb, build.lib, REMOTE_LIB, opts.pushMs ?? 60_000);
  await adb.shell(`chmod 755 ${REMOTE_BIN}`);
  // one left from a host that died holds the socket name: the new one could not listen
  await killMinicap(adb);
  const held = await adb.holdShell(
    `LD_LIBRARY_PATH=${REMOTE_DIR} ${REMOTE_BIN} -P ${projection(geometry)} -Q ${QUALITY}`,
  );
  const run = new MinicapRun(adb, held);
  try {
    const { socket, reader, first } = await run.connect(opts.startWaitMs ?? 5_000);
    return run.stream(socket, reader, first, onFrame);
  } catch (err) {
    await run.stop();
    throw err;
  }
}

async function phoneBuild(adb: AdbDevice): Promise<MinicapBuild> {
  const abi = await adb.getprop('ro.product.cpu.abi');
  const sdk = Number(await adb.getprop('ro.build.version.sdk'));
  const build = minicapBuild(abi, sdk);
  if (!build) throw new MinicapError(`no minicap build for ${abi} API ${sdk}`);
  return build;
}

/** `-P`: `<real w>x<real h>@<virtual w>x<virtual h>/<rotation>` */
function projection(g: MinicapGeometry): string {
  return `${g.width}x${g.height}@${g.virtualWidth}x${g.virtualHeight}/${g.rotation}`;
}

/** One started minicap: its held shell, what it said, and the socket once connected. */
class MinicapRun {
  private output = '';
  private shellEnded = false;
  private socket: Duplex | null = null;
  private stopped = false;
  private settle: (err: Error | null) => void = () => undefined;
  readonly ended = new Promise<Error | null>((resolve) => (this.settle = resolve));

  constructor(
    private readonly adb: AdbDevice,
    private readonly held: Duplex,
  ) {
    held.on('data', (d: Buffer) => (this.output = (this.output + d.toString('utf8')).slice(-2_000)));
    held.on('error', () => undefined);
    held.on('close', () => {
      this.shellEnded = true;
      this.fail(new MinicapError(`minicap ended: ${this.lastLine()}`));
    });
  }

  /** Tries the socket until minicap serves its banner there, bounded by `waitMs`. */
  async connect(waitMs: number): Promise<{ socket: Duplex; reader: MinicapFrameReader; first: Buffer[] }> {
    const deadline = Date.now() + waitMs;
    let last: string;
    for (;;) {
      if (this.shellEnded) throw new MinicapError(`minicap ended before it served frames: ${this.lastLine()}`);
      try {
        return await this.attempt(Math.max(200, deadline - Date.now()));
      } catch (err) {
        last = describeError(err);
      }
      if (Date.now() >= deadline)
        throw new MinicapError(`minicap did not serve its socket within ${waitMs} ms (${last})`);
      await sleep(250);
    }
  }

  /** One connection: resolves once the banner came, rejects when the socket closes or stays silent. */
  private async attempt(waitMs: number): Promise<{ socket: Duplex; reader: MinicapFrameReader; first: Buffer[] }> {
    const socket = await this.adb.openLocal(SOCKET);
    const reader = new MinicapFrameReader();
    const first: Buffer[] = [];
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => done(new MinicapError('no banner yet')), waitMs);
      const done = (err: Error | null): void => {
        clearTimeout(timer);
        socket.off('data', onData);
        socket.off('close', onClose);
        socket.off('error', onClose);
        if (!err) return resolve({ socket, reader, first });
        socket.destroy();
        reject(err);
      };
      const onData = (chunk: Buffer): void => {
        try {
          first.push(...reader.feed(chunk));
        } catch (err) {
          return done(err as Error);
        }
        if (reader.banner) {
          // what came after the banner stays paused until the caller listens
          socket.pause();
          done(null);
        }
      };
      const onClose = (): void => done(new MinicapError('the socket closed before the banner'));
      socket.on('data', onData);
      socket.on('close', onClose);
      socket.on('error', onClose);
    });
  }

  stream(socket: Duplex, reader: MinicapFrameReader, first: Buffer[], onFrame: (f: Buffer) => void): MinicapStream {
    this.socket = socket;
    for (const f of first) onFrame(f);
    socket.on('data', (chunk: Buffer) => {
      let frames: Buffer[];
      try {
        frames = reader.feed(chunk);
      } catch (err) {
        return this.fail(err as Error);
      }
      for (const f of frames) onFrame(f);
    });
    socket.on('error', (err: Error) => this.fail(new MinicapError(`the minicap socket failed: ${err.message}`)));
    socket.on('close', () => this.fail(new MinicapError('minicap closed its socket')));
    socket.resume();
    // closed between the banner and these listeners: no 'close' is coming any more
    if (socket.destroyed) this.fail(new MinicapError('minicap closed its socket'));
    return { banner: reader.banner as MinicapBanner, stop: () => this.stop(), ended: this.ended };
  }

  /** Broken: everything is taken down, the stream says why (once; a stop before wins). */
  private fail(err: Error): void {
    if (this.stopped) return;
    this.settle(err);
    void this.stop();
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.settle(null);
    this.socket?.destroy();
    this.held.destroy();
    // closing ADB's shell stream does not always end what it ran
    await killMinicap(this.adb);
  }

  private lastLine(): string {
    const lines = this.output.trim().split('\n');
    return (lines[lines.length - 1] ?? '').trim().slice(0, 200) || 'no output';
  }
}

async function killMinicap(adb: AdbDevice): Promise<void> {
  await adb.shell('pkill minicap', 5_000).catch(() => undefined);
}

/** Pushes `local` unless the phone's copy has the same MD5 (a phone without md5sum gets it pushed). */
export async function pushIfChanged(adb: AdbDevice, local: string, remote: string, timeoutMs: number): Promise<void> {
  const want = createHash('md5').update(fs.readFileSync(local)).digest('hex');
  const have = /^([0-9a-f]{32})\b/.exec((await adb.shell(`md5sum ${remote} 2>/dev/null`)).trim())?.[1];
  if (have === want) return;
  await adb.push(fs.createReadStream(local), remote, timeoutMs);
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
