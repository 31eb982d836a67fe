import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { AdbDevice } from '../../device-worker/adb/adb-device';
import { MinicapFrameReader, type MinicapBanner } from './minicap-protocol';
import { ScreenServer, type ServerSpec } from './screen-server';

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

/** minicap as a screen server: its banner is the header, JPEG frames follow. */
const MINICAP_SERVER: ServerSpec<MinicapFrameReader, Buffer> = {
  name: 'minicap',
  socket: SOCKET,
  newReader: () => new MinicapFrameReader(),
  header: (reader) => (reader.banner ? 'ok' : 'wait'),
  kill: killMinicap,
  minAttemptMs: 200,
};

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
  const server = new ScreenServer(adb, held, MINICAP_SERVER);
  try {
    const opened = await server.connect(opts.startWaitMs ?? 5_000);
    server.stream(opened, (frames) => frames.forEach((f) => onFrame(f)));
    return { banner: opened.reader.banner as MinicapBanner, stop: () => server.stop(), ended: server.ended };
  } catch (err) {
    await server.stop();
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
