import type { AdbDevice } from '../../device-worker/adb/adb-device';
import type { ScreenMeta } from '../../domain/contracts/host-channel';
import { describeError } from '../../platform/errors';
import { minicapBuild, startMinicap, type MinicapBuild, type MinicapStream } from './minicap';
import { startScrcpy } from './scrcpy';
import { startScreencap } from './screencap';

export interface ScreenStream {
  /**
   * width and height: the phone's screen in its own pixels as the person sees it (turned with the
   * phone), the space an input's coordinates are in; a minicap frame is smaller, scaled alike
   */
  meta: ScreenMeta;
  /** why this path was taken (a fallback says what failed): one line for the host's log */
  why: string;
  /** no frame after this; `ended` then says null */
  stop(): Promise<void>;
  /** null once stopped; why the stream broke otherwise (the phone left, minicap died) */
  ended: Promise<Error | null>;
}

export interface ScreenStreamOptions {
  /** the widest frame wanted, in pixels; frames are never wider than the phone's own screen */
  maxWidth?: number;
  /** the longest side of a minicap frame; default 1280 */
  maxLongSide?: number;
  /** screencap's ceiling; default 2 a second */
  screencapFps?: number;
  /** how long minicap has to start before screencap takes over; default 5 s */
  minicapStartMs?: number;
  /** how long scrcpy-server has to start before screencap takes over; default 8 s */
  scrcpyStartMs?: number;
}

/**
 * One frame of the stream. `key` is said only by an H.264 stream: a key frame (with its SPS and
 * PPS) a decoder can start from; the frames between need every one before them.
 */
export type OnScreenFrame = (frame: Buffer, key?: boolean) => void;

/** scrcpy-server 2.x runs from Android 5.0 on. */
const SCRCPY_MIN_SDK = 21;

const DEFAULT_LONG_SIDE = 1280;

/** What the phone's build makes possible, as read once per stream. */
export interface PhoneScreenFacts {
  sdk: number;
  abi: string;
  /** a minicap build for this ABI and API level, when the packages have one */
  minicap: MinicapBuild | null;
}

/**
 * Which path streams this phone:
 * | phone | path |
 * |---|---|
 * | a minicap build for its ABI and API level (≤ 30, or 32) | minicap (JPEG); screencap when it fails to start |
 * | no build, API ≥ 21 (API 31, > 32, an ABI without builds) | scrcpy (H.264); screencap when it fails to start |
 * | no build, API < 21 | screencap (PNG) |
 */
export function chooseScreenPath(facts: PhoneScreenFacts): { path: 'minicap' | 'scrcpy' | 'screencap'; why: string } {
  if (facts.minicap) return { path: 'minicap', why: `minicap: a build for ${facts.abi} API ${facts.sdk}` };
  const none = `no minicap build for ${facts.abi || 'an unnamed ABI'} API ${facts.sdk}`;
  if (facts.sdk >= SCRCPY_MIN_SDK) return { path: 'scrcpy', why: `scrcpy: ${none}` };
  return { path: 'screencap', why: `screencap: ${none}, and scrcpy needs API ${SCRCPY_MIN_SDK}` };
}

/** The frame size asked of minicap: the real size scaled down to the limits, aspect kept. */
export function virtualSize(
  real: { width: number; height: number },
  opts: Pick<ScreenStreamOptions, 'maxWidth' | 'maxLongSide'> = {},
): { width: number; height: number } {
  const long = Math.max(real.width, real.height);
  const scale = Math.min(1, (opts.maxLongSide ?? DEFAULT_LONG_SIDE) / long, (opts.maxWidth ?? Infinity) / real.width);
  return { width: Math.max(1, Math.round(real.width * scale)), height: Math.max(1, Math.round(real.height * scale)) };
}

/** `dumpsys input`'s `SurfaceOrientation: 1` in degrees; 0 when it does not say. */
export function parseSurfaceRotation(dumpsysInput: string): number {
  const m = /SurfaceOrientation:\s*([0-3])\b/.exec(dumpsysInput);
  return m ? Number(m[1]) * 90 : 0;
}

/**
 * Streams the phone's screen to `onFrame`, by minicap where a build exists (JPEG, scaled so the
 * long side is at most 1280 px), by scrcpy on a phone from API 21 without one (H.264, the same
 * scale), and by repeated screencap otherwise or when either fails to start (PNG, the phone's
 * own size). Throws only when the phone cannot be read at all (no screen size, ADB gone).
 */
export async function openScreenStream(
  adb: AdbDevice,
  onFrame: OnScreenFrame,
  opts: ScreenStreamOptions = {},
): Promise<ScreenStream> {
  const sdk = Number(await adb.getprop('ro.build.version.sdk'));
  const abi = await adb.getprop('ro.product.cpu.abi');
  const real = await adb.screenSize();
  if (!real) throw new Error(`phone ${adb.serial} did not say its screen size (wm size)`);
  const facts: PhoneScreenFacts = { sdk, abi, minicap: minicapBuild(abi, sdk) };
  const choice = chooseScreenPath(facts);
  const rotation = parseSurfaceRotation(await adb.shell('dumpsys input').catch(() => ''));
  if (choice.path === 'minicap' && facts.minicap) {
    const virtual = virtualSize(real, opts);
    try {
      const stream = await startMinicap(
        adb,
        { ...real, rotation, virtualWidth: virtual.width, virtualHeight: virtual.height },
        onFrame,
        { build: facts.minicap, startWaitMs: opts.minicapStartMs },
      );
      return minicapScreen(stream, choice.why);
    } catch (err) {
      const why = `screencap: minicap did not start (${describeError(err)})`;
      return screencapScreen(adb, turn(real, rotation), onFrame, opts, why);
    }
  }
  if (choice.path === 'scrcpy') {
    try {
      const stream = await startScrcpy(adb, onFrame, { startWaitMs: opts.scrcpyStartMs, maxSize: opts.maxLongSide });
      // scrcpy turns its video with the phone: the size is the phone's as the person sees it
      return {
        meta: { codec: 'h264', ...turn(real, rotation), path: 'scrcpy' },
        why: choice.why,
        stop: stream.stop,
        ended: stream.ended,
      };
    } catch (err) {
      const why = `screencap: scrcpy did not start (${describeError(err)})`;
      return screencapScreen(adb, turn(real, rotation), onFrame, opts, why);
    }
  }
  return screencapScreen(adb, turn(real, rotation), onFrame, opts, choice.why);
}

/** A screen turned a quarter swaps its sides: the frames are as the person sees the phone. */
function turn(size: { width: number; height: number }, rotation: number): { width: number; height: number } {
  return rotation === 90 || rotation === 270 ? { width: size.height, height: size.width } : size;
}

function minicapScreen(stream: MinicapStream, why: string): ScreenStream {
  const { banner } = stream;
  const size = turn({ width: banner.realWidth, height: banner.realHeight }, banner.orientation);
  return {
    meta: { codec: 'jpeg', ...size, path: 'minicap' },
    why,
    stop: stream.stop,
    ended: stream.ended,
  };
}

function screencapScreen(
  adb: AdbDevice,
  size: { width: number; height: number },
  onFrame: OnScreenFrame,
  opts: ScreenStreamOptions,
  why: string,
): ScreenStream {
  const stream = startScreencap(adb, onFrame, { fps: opts.screencapFps });
  return { meta: { codec: 'png', ...size, path: 'screencap' }, why, stop: stream.stop, ended: stream.ended };
}

/** One picture of the screen now, at the phone's own pixel size. */
export async function grabFrame(adb: AdbDevice): Promise<{ contentType: 'image/png'; body: Buffer }> {
  return { contentType: 'image/png', body: await adb.screencap() };
}
