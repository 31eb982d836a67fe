import { randomInt } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import type { AdbDevice } from '../../device-worker/adb/adb-device';
import { describeError } from '../../platform/errors';
import { pushIfChanged } from './minicap';
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
  const run = new ScrcpyRun(adb, held, scid);
  try {
    const { socket, reader, first } = await run.connect(opts.startWaitMs ?? 8_000);
    return run.stream(socket, reader, first, onFrame);
  } catch (err) {
    await run.stop();
    throw err;
  }
}

type Connected = { socket: Duplex; reader: ScrcpyVideoReader; first: ScrcpyPacket[] };

/** One started server: its held shell, what it printed, and the video socket once connected. */
class ScrcpyRun {
  private output = '';
  private shellEnded = false;
  private socket: Duplex | null = null;
  private stopped = false;
  private settle: (err: Error | null) => void = () => undefined;
  readonly ended = new Promise<Error | null>((resolve) => (this.settle = resolve));

  constructor(
    private readonly adb: AdbDevice,
    private readonly held: Duplex,
    private readonly scid: number,
  ) {
    held.on('data', (d: Buffer) => (this.output = (this.output + d.toString('utf8')).slice(-2_000)));
    held.on('error', () => undefined);
    held.on('close', () => {
      this.shellEnded = true;
      this.fail(new ScrcpyError(`scrcpy-server ended: ${this.lastLine()}`));
    });
  }

  /** Tries the socket until the server listens and sends its header, bounded by `waitMs`. */
  async connect(waitMs: number): Promise<Connected> {
    const deadline = Date.now() + waitMs;
    let last: string;
    for (;;) {
      if (this.shellEnded) throw new ScrcpyError(`scrcpy-server ended before it streamed: ${this.lastLine()}`);
      try {
        return await this.attempt(Math.max(500, deadline - Date.now()));
      } catch (err) {
        last = describeError(err);
        // the server takes one connection: once it sent something else, trying again waits for nothing
        if (err instanceof ScrcpyError && err.message.startsWith('scrcpy sent')) throw err;
      }
      if (Date.now() >= deadline)
        throw new ScrcpyError(`scrcpy-server did not serve its socket within ${waitMs} ms (${last})`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  private async attempt(waitMs: number): Promise<Connected> {
    const socket = await this.adb.openLocal(`localabstract:${socketName(this.scid)}`);
    const reader = new ScrcpyVideoReader();
    const first: ScrcpyPacket[] = [];
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => done(new ScrcpyError('no header yet')), waitMs);
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
          return done(new ScrcpyError(`scrcpy sent no video stream: ${describeError(err)}`));
        }
        if (!reader.header) return;
        if (reader.header.codec !== CODEC_H264)
          return done(new ScrcpyError(`scrcpy sent codec ${codecName(reader.header.codec)}, not h264`));
        // what came after the header stays paused until the caller listens
        socket.pause();
        done(null);
      };
      const onClose = (): void => done(new ScrcpyError('the socket closed before the header'));
      socket.on('data', onData);
      socket.on('close', onClose);
      socket.on('error', onClose);
    });
  }

  stream(
    socket: Duplex,
    reader: ScrcpyVideoReader,
    first: ScrcpyPacket[],
    onFrame: (f: Buffer, key: boolean) => void,
  ): ScrcpyStream {
    this.socket = socket;
    const joiner = new KeyFrameJoiner();
    const deliver = (packets: ScrcpyPacket[]): void => {
      for (const p of packets) {
        const out = joiner.push(p);
        if (out) onFrame(out.frame, out.key);
      }
    };
    socket.on('error', (err: Error) => this.fail(new ScrcpyError(`the scrcpy socket failed: ${err.message}`)));
    socket.on('close', () => this.fail(new ScrcpyError('scrcpy-server closed its socket')));
    // frames begin once the caller had its turn to announce the stream
    setImmediate(() => {
      if (this.stopped) return;
      deliver(first);
      socket.on('data', (chunk: Buffer) => {
        try {
          deliver(reader.feed(chunk));
        } catch (err) {
          this.fail(err as Error);
        }
      });
      socket.resume();
      // closed between the header and these listeners: no 'close' is coming any more
      if (socket.destroyed) this.fail(new ScrcpyError('scrcpy-server closed its socket'));
    });
    return { header: reader.header as ScrcpyHeader, stop: () => this.stop(), ended: this.ended };
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
    // closing ADB's shell stream does not always end what it ran; the scid names this server alone
    await this.adb
      .shell(`pkill -f scid=${(this.scid >>> 0).toString(16).padStart(8, '0')}`, 5_000)
      .catch(() => undefined);
  }

  private lastLine(): string {
    const lines = this.output.trim().split('\n');
    return (lines[lines.length - 1] ?? '').trim().slice(0, 200) || 'no output';
  }
}
