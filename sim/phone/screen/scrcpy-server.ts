import type { Socket } from 'node:net';
import type { Phone } from '../phone';
import { renderRaw } from '../app/render-png';
import { renderXml } from '../app/render-xml';
import { scaleRgba, screenTree } from './frames';
import { H264Encoder, type EncodedPacket } from './scrcpy-encoder';

/** scrcpy 2.x's fixed-size device name field, NUL-padded UTF-8 */
const DEVICE_NAME_BYTES = 64;
const CODEC_H264 = 0x68323634;
const PACKET_FLAG_CONFIG = 1n << 63n;
const PACKET_FLAG_KEY_FRAME = 1n << 62n;
/** ~12 frames a second unless `max_fps` asks fewer; MediaCodec repeats the last frame as scrcpy asks it to */
const FRAME_INTERVAL_MS = 80;
/** Bytes still queued for the client beyond which a picture is not taken: it has not read the last ones. */
const BACKLOG_BYTES = 512 * 1024;

export interface ScrcpyServerOptions {
  socketName: string;
  /** the video size (the screen scaled to `max_size`, multiples of 8) */
  width: number;
  height: number;
  maxFps: number;
  deviceName: string;
  sendDummyByte: boolean;
  sendDeviceMeta: boolean;
  sendCodecMeta: boolean;
  sendFrameMeta: boolean;
}

/** scrcpy's video size: the screen's sides rounded down to multiples of 8, the long one at most `maxSize`. */
export function videoSize(
  screen: { width: number; height: number },
  maxSize: number,
): { width: number; height: number } {
  let w = screen.width & ~7;
  let h = screen.height & ~7;
  if (maxSize > 0) {
    const portrait = h > w;
    let major = portrait ? h : w;
    let minor = portrait ? w : h;
    if (major > maxSize) {
      // +4 rounds to the nearest multiple of 8, as the server does
      minor = (Math.floor((minor * maxSize) / major) + 4) & ~7;
      major = maxSize;
    }
    w = portrait ? minor : major;
    h = portrait ? major : minor;
  }
  return { width: w, height: h };
}

/**
 * scrcpy-server's video socket in forward-tunnel mode with audio and control off: it listens on
 * its abstract socket for one client (then no more: the real server closes its listening socket
 * once every stream it serves is connected), sends the dummy byte, the device name, the codec
 * meta, then a packet per encoded picture. When the client goes, the server ends (`done`).
 */
export class ScrcpyServer {
  private client: Socket | null = null;
  private encoder: H264Encoder | null = null;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private readonly startedAt = process.hrtime.bigint();
  private rawKey: string | null = null;
  private raw: Buffer | null = null;

  constructor(
    private readonly phone: Phone,
    private readonly o: ScrcpyServerOptions,
    private readonly done: (error: string | null) => void,
  ) {}

  /** false when another program holds the socket's name */
  listen(): boolean {
    return this.phone.abstractSockets.listen(this.o.socketName, this.accept);
  }

  private readonly accept = (sock: Socket): void => {
    this.phone.abstractSockets.close(this.o.socketName, this.accept);
    if (this.stopped || this.client) return void sock.destroy();
    this.client = sock;
    sock.on('error', () => undefined);
    // with control off nothing the client sends is read
    sock.on('data', () => undefined);
    sock.once('close', () => this.end(null));
    sock.write(this.header());
    this.encoder = new H264Encoder(
      this.o.width,
      this.o.height,
      1000 / this.interval(),
      (p) => this.send(p),
      (why) => why && this.end(`[server] ERROR: Encoding error: ${why}`),
    );
    this.tick();
    this.timer = setInterval(() => this.tick(), this.interval());
    this.timer.unref();
  };

  private interval(): number {
    return this.o.maxFps > 0 ? Math.max(FRAME_INTERVAL_MS, 1000 / this.o.maxFps) : FRAME_INTERVAL_MS;
  }

  private header(): Buffer {
    const parts: Buffer[] = [];
    if (this.o.sendDummyByte) parts.push(Buffer.from([0]));
    if (this.o.sendDeviceMeta) {
      const name = Buffer.alloc(DEVICE_NAME_BYTES);
      Buffer.from(this.o.deviceName, 'utf8').copy(name, 0, 0, DEVICE_NAME_BYTES - 1);
      parts.push(name);
    }
    if (this.o.sendCodecMeta) {
      const meta = Buffer.alloc(12);
      meta.writeUInt32BE(CODEC_H264, 0);
      meta.writeUInt32BE(this.o.width, 4);
      meta.writeUInt32BE(this.o.height, 8);
      parts.push(meta);
    }
    return Buffer.concat(parts);
  }

  /** The screen now as RGBA at the video size, drawn again only when it changed. */
  private picture(): Buffer {
    const tree = screenTree(this.phone);
    const key = renderXml(tree);
    if (!this.raw || key !== this.rawKey) {
      this.raw = scaleRgba(renderRaw(tree), this.o.width, this.o.height);
      this.rawKey = key;
    }
    return this.raw;
  }

  private tick(): void {
    const sock = this.client;
    if (!sock || !this.encoder || sock.destroyed || sock.writableLength > BACKLOG_BYTES) return;
    this.encoder.encode(this.picture());
  }

  private send(p: EncodedPacket): void {
    const sock = this.client;
    if (!sock || sock.destroyed) return;
    if (!this.o.sendFrameMeta) return void sock.write(p.data);
    const head = Buffer.alloc(12);
    const pts = (process.hrtime.bigint() - this.startedAt) / 1000n;
    head.writeBigUInt64BE(p.config ? PACKET_FLAG_CONFIG : p.key ? pts | PACKET_FLAG_KEY_FRAME : pts, 0);
    head.writeUInt32BE(p.data.length, 8);
    sock.cork();
    sock.write(head);
    sock.write(p.data);
    sock.uncork();
  }

  private end(error: string | null): void {
    if (this.stopped) return;
    this.stop();
    this.done(error);
  }

  /** The process ends: the socket's name is free again, the client's connection drops, ffmpeg goes. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.phone.abstractSockets.close(this.o.socketName, this.accept);
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.encoder?.stop();
    this.client?.destroy();
  }
}
