import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';

/**
 * The simulator's stand-in for the phone's MediaCodec H.264 encoder: Debian's ffmpeg (libx264)
 * reads raw RGBA frames on stdin and writes an Annex-B stream on stdout, which is cut here into
 * what MediaCodec hands scrcpy: one config packet (SPS and PPS) before a key frame, then one
 * packet per picture.
 */
const FFMPEG = 'ffmpeg';
const START_CODE = Buffer.from([0, 0, 0, 1]);
const NAL_SLICE = 1;
const NAL_IDR = 5;
const NAL_SPS = 7;
const NAL_PPS = 8;

export interface EncodedPacket {
  config: boolean;
  key: boolean;
  /** Annex-B: each NAL unit after a 4-byte start code */
  data: Buffer;
}

let ffmpegChecked: string | null | undefined;

/** Why the encoder cannot run here (no ffmpeg, or one without libx264); null when it can. Asked once. */
export function encoderMissing(): string | null {
  if (ffmpegChecked !== undefined) return ffmpegChecked;
  const r = spawnSync(FFMPEG, ['-hide_banner', '-encoders'], { encoding: 'utf8', timeout: 10_000 });
  ffmpegChecked =
    r.error || r.status !== 0
      ? `${FFMPEG} not found (Debian package "ffmpeg")`
      : /\blibx264\b/.test(r.stdout)
        ? null
        : `${FFMPEG} has no libx264 encoder`;
  return ffmpegChecked;
}

/**
 * Splits an Annex-B byte stream into NAL units as it arrives. A unit is complete only once the
 * next start code came, so the last one waits for the next write.
 */
class NalSplitter {
  private buf: Buffer = Buffer.alloc(0);
  /** where the current unit's payload begins in `buf`; -1 before the first start code */
  private begin = -1;
  private scanned = 0;

  feed(chunk: Buffer): Buffer[] {
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    const units: Buffer[] = [];
    for (let i = Math.max(0, this.scanned); i + 2 < this.buf.length; i++) {
      if (this.buf[i] !== 0 || this.buf[i + 1] !== 0 || this.buf[i + 2] !== 1) continue;
      if (this.begin >= 0) {
        let end = i;
        // the zero before a 4-byte start code belongs to it, not to the unit
        while (end > this.begin && this.buf[end - 1] === 0) end--;
        if (end > this.begin) units.push(Buffer.from(this.buf.subarray(this.begin, end)));
      }
      this.begin = i + 3;
      i += 2;
    }
    if (this.begin >= 0) {
      this.buf = this.buf.subarray(this.begin);
      this.begin = 0;
    }
    this.scanned = Math.max(0, this.buf.length - 2);
    return units;
  }
}

/** Groups NAL units into MediaCodec's packets: config (SPS, PPS), then one per picture. */
class PacketGrouper {
  private config: Buffer[] = [];
  private picture: Buffer[] = [];

  push(unit: Buffer): EncodedPacket[] {
    const type = (unit[0] as number) & 0x1f;
    const out: EncodedPacket[] = [];
    if (type === NAL_SPS || type === NAL_PPS) {
      out.push(...this.endPicture());
      this.config.push(unit);
      return out;
    }
    // SEI, access unit delimiters and the rest: MediaCodec does not hand them out
    if (type !== NAL_SLICE && type !== NAL_IDR) return out;
    // first_mb_in_slice, ue(v), is 0 exactly when its first bit is 1: a new picture
    if (this.picture.length && ((unit[1] as number) & 0x80) !== 0) out.push(...this.endPicture());
    if (this.config.length) {
      out.push({ config: true, key: false, data: annexB(this.config) });
      this.config = [];
    }
    this.picture.push(unit);
    return out;
  }

  private endPicture(): EncodedPacket[] {
    if (!this.picture.length) return [];
    const key = this.picture.some((u) => ((u[0] as number) & 0x1f) === NAL_IDR);
    const data = annexB(this.picture);
    this.picture = [];
    return [{ config: false, key, data }];
  }
}

function annexB(units: Buffer[]): Buffer {
  return Buffer.concat(units.flatMap((u) => [START_CODE, u]));
}

/** One running ffmpeg for one video size; `encode` is skipped while it is behind. */
export class H264Encoder {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly splitter = new NalSplitter();
  private readonly grouper = new PacketGrouper();
  private stopped = false;

  constructor(
    readonly width: number,
    readonly height: number,
    fps: number,
    onPacket: (p: EncodedPacket) => void,
    onExit: (why: string | null) => void,
  ) {
    this.child = spawn(FFMPEG, [
      ...['-hide_banner', '-loglevel', 'error', '-f', 'rawvideo', '-pix_fmt', 'rgba'],
      ...['-s', `${width}x${height}`, '-r', String(fps), '-i', 'pipe:0', '-an'],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-bf', '0', '-g', '30'],
      // one slice a picture, and one core: the phones of a test share the machine
      ...['-threads', '1', '-pix_fmt', 'yuv420p', '-f', 'h264', 'pipe:1'],
    ]);
    let stderr = '';
    this.child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-500)));
    this.child.stdin.on('error', () => undefined);
    this.child.stdout.on('data', (chunk: Buffer) => {
      for (const unit of this.splitter.feed(chunk)) for (const p of this.grouper.push(unit)) onPacket(p);
    });
    this.child.on('error', (err) => onExit(this.stopped ? null : err.message));
    this.child.on('close', (code) =>
      onExit(this.stopped ? null : `ffmpeg exited (${code}): ${stderr.trim() || 'no output'}`),
    );
  }

  /** false when the frame was dropped: ffmpeg has not taken the last ones yet */
  encode(rgba: Buffer): boolean {
    if (this.stopped || this.child.stdin.writableLength > rgba.length * 2) return false;
    this.child.stdin.write(rgba);
    return true;
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.child.stdin.destroy();
    this.child.kill('SIGKILL');
  }
}
