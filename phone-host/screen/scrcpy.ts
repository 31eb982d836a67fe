import { randomInt } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { AdbDevice } from '../../device-worker/adb/adb-device';
import { pushIfChanged } from './minicap';
import { ScreenServer, ScreenServerError, type ServerSpec } from './screen-server';
import {
  CODEC_H264,
  KeyFrameJoiner,
  SCRCPY_VERSION,
  ScrcpyVideoReader,
  codecName,
  serverCommand,
  socketName,
  type ScrcpyHeader,
  type ScrcpyPacket,
} from './scrcpy-protocol';

/**
 * scrcpy-server (Genymobile's screen mirroring server, a jar run by `app_process`): H.264 from the
 * phone's own encoder, for any phone from API 21 on, with no build per API level. Pushed to
 * /data/local/tmp, started from a held shell with a random `scid`, so a server left by a host
 * that died cannot hold the socket name a new one needs; it serves one client and ends with it.
 */
const REMOTE_JAR = '/data/local/tmp/scrcpy-server.jar';
const DEFAULT_MAX_SIZE = 1280;
const DEFAULT_MAX_FPS = 15;

/** The jar of the version this host speaks, from `@u4/minicap-prebuilt`; null when the package is missing. */
function scrcpyJar(): string | null {
  try {
    const root = path.dirname(require.resolve('@u4/minicap-prebuilt'));
    const jar = path.join(root, 'prebuilt', 'scrcpy', `scrcpy-server-v${SCRCPY_VERSION}.jar`);
    return fs.existsSync(jar) ? jar : null;
  } catch {
    return null;
  }
}

export interface ScrcpyStream {
  header: ScrcpyHeader;
  /** ends the socket, the held shell and the server; `ended` then says null */
  stop(): Promise<void>;
  /** null once stopped; the error when the stream broke or the server ended on its own */
  ended: Promise<Error | null>;
}

export interface ScrcpyOptions {
  /** how long the server has to open its socket and send its header; default 8 s (a JVM starts) */
  startWaitMs?: number;
  pushMs?: number;
  /** the video's long side; default 1280 */
  maxSize?: number;
  maxFps?: number;
}

class ScrcpyError extends Error {
  override readonly name = 'ScrcpyError';
}

/**
 * scrcpy-server as a screen server: its header (dummy byte, name, codec meta) must name H.264;
 * it serves one connection, so one that sent something else is not tried again.
 */
function scrcpyServer(scid: number): ServerSpec<ScrcpyVideoReader, ScrcpyPacket> {
  return {
    name: 'scrcpy-server',
    socket: `localabstract:${socketName(scid)}`,
    newReader: () => new ScrcpyVideoReader(),
    header: (reader) => {
      if (!reader.header) return 'wait';
      if (reader.header.codec !== CODEC_H264)
        return new ScreenServerError(`scrcpy sent codec ${codecName(reader.header.codec)}, not h264`, true);
      return 'ok';
    },
    // the scid names this server alone
    kill: async (adb) => {
      await adb.shell(`pkill -f scid=${(scid >>> 0).toString(16).padStart(8, '0')}`, 5_000);
    },
    minAttemptMs: 500,
  };
}

/**
 * Pushes the jar when the phone lacks this one, starts the server and streams its pictures to
 * `onFrame`, each key frame with the SPS and PPS in front. Throws when it did not start (the
 * caller falls back to screencap).
 */
export async function startScrcpy(
  adb: AdbDevice,
  onFrame: (frame: Buffer, key: boolean) => void,
  opts: ScrcpyOptions = {},
): Promise<ScrcpyStream> {
  const jar = scrcpyJar();
  if (!jar) throw new ScrcpyError(`no scrcpy-server ${SCRCPY_VERSION} jar (npm package @u4/minicap-prebuilt)`);
  await pushIfChanged(adb, jar, REMOTE_JAR, opts.pushMs ?? 60_000);
  const scid = randomInt(1, 0x7fff_ffff);
  const held = await adb.holdShell(
    serverCommand(REMOTE_JAR, {
      scid,
      maxSize: opts.maxSize ?? DEFAULT_MAX_SIZE,
      maxFps: opts.maxFps ?? DEFAULT_MAX_FPS,
    }),
  );
  const server = new ScreenServer(adb, held, scrcpyServer(scid));
  try {
    const opened = await server.connect(opts.startWaitMs ?? 8_000);
    const joiner = new KeyFrameJoiner();
    server.stream(opened, (packets) => {
      for (const p of packets) {
        const out = joiner.push(p);
        if (out) onFrame(out.frame, out.key);
      }
    });
    return { header: opened.reader.header as ScrcpyHeader, stop: () => server.stop(), ended: server.ended };
  } catch (err) {
    await server.stop();
    throw err;
  }
}
