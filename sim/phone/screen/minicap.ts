import type { Socket } from 'node:net';
import type { Phone } from '../phone';
import { ScreenFrames } from './frames';

/** `-P <realW>x<realH>@<virtW>x<virtH>/<rotation>`: the display and the size frames are drawn at. */
export interface Projection {
  realWidth: number;
  realHeight: number;
  virtualWidth: number;
  virtualHeight: number;
  /** degrees: 0, 90, 180 or 270 */
  rotation: number;
}

const BANNER_VERSION = 1;
const BANNER_BYTES = 24;
/** ~14 frames a second, changed or not: a viewer measures a steady rate, and never more than ~15. */
export const FRAME_INTERVAL_MS = 70;
/** Bytes still queued for a viewer beyond which a tick is skipped: it has not read the last frame yet. */
const BACKLOG_BYTES = 256 * 1024;

/** The 24 bytes every client reads first (minicap's README "Global header binary format"). */
function minicapBanner(pid: number, p: Projection): Buffer {
  const b = Buffer.alloc(BANNER_BYTES);
  b.writeUInt8(BANNER_VERSION, 0);
  b.writeUInt8(BANNER_BYTES, 1);
  b.writeUInt32LE(pid, 2);
  b.writeUInt32LE(p.realWidth, 6);
  b.writeUInt32LE(p.realHeight, 10);
  b.writeUInt32LE(p.virtualWidth, 14);
  b.writeUInt32LE(p.virtualHeight, 18);
  b.writeUInt8(p.rotation / 90, 22);
  // quirks: none (no QUIRK_DUMB, QUIRK_ALWAYS_UPRIGHT or QUIRK_TEAR)
  b.writeUInt8(0, 23);
  return b;
}

/**
 * minicap's socket while its process runs: like the real one it serves one client at a time (a
 * second connection waits, unanswered, until the first goes), sends the banner and a frame at
 * once, then a frame every tick — the new screen when it changed, else the same JPEG again.
 */
export class MinicapServer {
  private readonly frames: ScreenFrames;
  private client: Socket | null = null;
  private readonly waiting: Socket[] = [];
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly phone: Phone,
    private readonly pid: number,
    private readonly projection: Projection,
    quality: number,
    private readonly socketName: string,
  ) {
    this.frames = new ScreenFrames(phone, projection.virtualWidth, projection.virtualHeight, quality);
  }

  /** false when another program holds the socket's name */
  listen(): boolean {
    return this.phone.abstractSockets.listen(this.socketName, this.accept);
  }

  private readonly accept = (sock: Socket): void => {
    if (this.stopped) return void sock.destroy();
    sock.on('error', () => undefined);
    // a viewer sends nothing minicap reads; what it sends is dropped
    sock.on('data', () => undefined);
    sock.once('close', () => this.left(sock));
    this.waiting.push(sock);
    if (!this.client) this.serveNext();
  };

  private left(sock: Socket): void {
    const i = this.waiting.indexOf(sock);
    if (i >= 0) this.waiting.splice(i, 1);
    if (this.client !== sock) return;
    this.client = null;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.serveNext();
  }

  private serveNext(): void {
    const sock = this.waiting.shift();
    if (!sock || this.stopped) return;
    this.client = sock;
    sock.write(minicapBanner(this.pid, this.projection));
    this.send(sock);
    this.timer = setInterval(() => this.send(sock), FRAME_INTERVAL_MS);
    this.timer.unref();
  }

  private send(sock: Socket): void {
    if (sock.destroyed || sock.writableLength > BACKLOG_BYTES) return;
    const { jpeg } = this.frames.frame();
    const length = Buffer.alloc(4);
    length.writeUInt32LE(jpeg.length, 0);
    sock.cork();
    sock.write(length);
    sock.write(jpeg);
    sock.uncork();
  }

  /** The process ends: its socket's name is free again and every viewer's connection drops. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.phone.abstractSockets.close(this.socketName, this.accept);
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    for (const s of [this.client, ...this.waiting]) s?.destroy();
    this.client = null;
    this.waiting.length = 0;
  }
}
