/**
 * scrcpy 2.4's video socket as a client reads it in forward-tunnel mode with audio and control
 * off (the scrcpy project's developer notes, section Protocol, and its server's `Streamer.java`): a dummy byte, the
 * device name in a 64-byte NUL-padded field, the codec meta (u32 codec id, u32 width, u32
 * height), then packets, each a 12-byte header (u64 PTS whose top bits are flags: bit 63 a
 * config packet, bit 62 a key frame; u32 size) and that many bytes of Annex-B H.264. All
 * integers big-endian.
 */
export const SCRCPY_VERSION = '2.4';
export const CODEC_H264 = 0x68323634;
const DEVICE_NAME_BYTES = 64;
const CODEC_META_BYTES = 12;
const PACKET_HEADER_BYTES = 12;
const FLAG_CONFIG = 1n << 63n;
const FLAG_KEY_FRAME = 1n << 62n;
const PTS_MASK = FLAG_KEY_FRAME - 1n;
/** A packet bigger than this is a broken stream, not a picture. */
const MAX_PACKET_BYTES = 8 * 1024 * 1024;

export interface ScrcpyHeader {
  deviceName: string;
  codec: number;
  /** the video's size: the screen scaled down to `max_size`, sides multiples of 8 */
  width: number;
  height: number;
}

export interface ScrcpyPacket {
  config: boolean;
  key: boolean;
  /** microseconds; null for a config packet */
  pts: bigint | null;
  data: Buffer;
}

class ScrcpyProtocolError extends Error {
  override readonly name = 'ScrcpyProtocolError';
}

/** Four ASCII letters (`h264`), or the number when it is none. */
export function codecName(id: number): string {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(id >>> 0, 0);
  const text = b.toString('latin1').replace(/^\0+/, '');
  return /^[a-z0-9]+$/.test(text) ? text : `0x${(id >>> 0).toString(16)}`;
}

/** The abstract socket a server started with `scid` listens on: `scrcpy_` and 8 hex digits. */
export function socketName(scid: number): string {
  return `scrcpy_${(scid >>> 0).toString(16).padStart(8, '0')}`;
}

/** The shell line that starts the server: one video stream, H.264, no audio, no control. */
export function serverCommand(jar: string, o: { scid: number; maxSize: number; maxFps: number }): string {
  const args = [
    `scid=${(o.scid >>> 0).toString(16).padStart(8, '0')}`,
    'log_level=info',
    'tunnel_forward=true',
    'audio=false',
    'control=false',
    'cleanup=false',
    'video_codec=h264',
    `max_size=${o.maxSize}`,
    `max_fps=${o.maxFps}`,
  ];
  return `CLASSPATH=${jar} app_process / com.genymobile.scrcpy.Server ${SCRCPY_VERSION} ${args.join(' ')}`;
}

/** Reads the video socket as it arrives: the header once, then packets. Throws on a stream that is not one. */
export class ScrcpyVideoReader {
  private buf: Buffer = Buffer.alloc(0);
  private stage: 'dummy' | 'name' | 'meta' | 'packets' = 'dummy';
  private name = '';
  header: ScrcpyHeader | null = null;

  feed(chunk: Buffer): ScrcpyPacket[] {
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    const packets: ScrcpyPacket[] = [];
    for (;;) {
      if (this.stage === 'dummy') {
        if (!this.take(1)) break;
        this.stage = 'name';
      } else if (this.stage === 'name') {
        const field = this.take(DEVICE_NAME_BYTES);
        if (!field) break;
        const end = field.indexOf(0);
        this.name = field.subarray(0, end < 0 ? field.length : end).toString('utf8');
        this.stage = 'meta';
      } else if (this.stage === 'meta') {
        const meta = this.take(CODEC_META_BYTES);
        if (!meta) break;
        const codec = meta.readUInt32BE(0);
        // 0: the server could not capture the screen and disabled the stream
        if (codec === 0) throw new ScrcpyProtocolError('scrcpy disabled the video stream (it could not capture)');
        const width = meta.readUInt32BE(4);
        const height = meta.readUInt32BE(8);
        if (width < 1 || height < 1 || width > 16_384 || height > 16_384)
          throw new ScrcpyProtocolError(`scrcpy sent a video size of ${width}x${height}`);
        this.header = { deviceName: this.name, codec, width, height };
        this.stage = 'packets';
      } else {
        if (this.buf.length < PACKET_HEADER_BYTES) break;
        const size = this.buf.readUInt32BE(8);
        if (size > MAX_PACKET_BYTES) throw new ScrcpyProtocolError(`scrcpy sent a packet of ${size} bytes`);
        if (this.buf.length < PACKET_HEADER_BYTES + size) break;
        const ptsAndFlags = this.buf.readBigUInt64BE(0);
        const data = Buffer.from(this.buf.subarray(PACKET_HEADER_BYTES, PACKET_HEADER_BYTES + size));
        this.buf = this.buf.subarray(PACKET_HEADER_BYTES + size);
        const config = (ptsAndFlags & FLAG_CONFIG) !== 0n;
        packets.push({
          config,
          key: !config && (ptsAndFlags & FLAG_KEY_FRAME) !== 0n,
          pts: config ? null : ptsAndFlags & PTS_MASK,
          data,
        });
      }
    }
    return packets;
  }

  private take(n: number): Buffer | null {
    if (this.buf.length < n) return null;
    const out = this.buf.subarray(0, n);
    this.buf = this.buf.subarray(n);
    return out;
  }
}

/**
 * Packets → frames a browser decodes from any key frame on: the config (SPS, PPS) is not a frame
 * of its own but goes in front of every key frame, the last one remembered, since MediaCodec
 * sends it once per encoder session and a viewer may join at any later key frame.
 */
export class KeyFrameJoiner {
  private config: Buffer | null = null;

  push(p: ScrcpyPacket): { frame: Buffer; key: boolean } | null {
    if (p.config) {
      this.config = p.data;
      return null;
    }
    if (p.key && this.config) return { frame: Buffer.concat([this.config, p.data]), key: true };
    return { frame: p.data, key: p.key };
  }
}
