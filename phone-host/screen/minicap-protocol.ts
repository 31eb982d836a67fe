/**
 * minicap's socket protocol: a banner once, then frames, each a 32-bit little-endian length and
 * that many bytes of JPEG. Pure: bytes in, banner and whole frames out.
 */

const MINICAP_BANNER_BYTES = 24;
/** A frame longer than this is a broken stream, not a picture (a 1280 px JPEG is ~100–300 kB). */
export const MINICAP_MAX_FRAME_BYTES = 8 * 1024 * 1024;

export interface MinicapBanner {
  version: number;
  /** the banner's own length (24 in every minicap so far) */
  length: number;
  /** minicap's process on the phone */
  pid: number;
  realWidth: number;
  realHeight: number;
  virtualWidth: number;
  virtualHeight: number;
  /** degrees: 0, 90, 180 or 270 */
  orientation: number;
  quirks: number;
}

export class MinicapProtocolError extends Error {
  override readonly name = 'MinicapProtocolError';
}

/** The banner at the start of `buf` (at least 24 bytes). */
export function parseMinicapBanner(buf: Buffer): MinicapBanner {
  if (buf.length < MINICAP_BANNER_BYTES)
    throw new MinicapProtocolError(`a minicap banner is ${MINICAP_BANNER_BYTES} bytes, got ${buf.length}`);
  const banner: MinicapBanner = {
    version: buf.readUInt8(0),
    length: buf.readUInt8(1),
    pid: buf.readUInt32LE(2),
    realWidth: buf.readUInt32LE(6),
    realHeight: buf.readUInt32LE(10),
    virtualWidth: buf.readUInt32LE(14),
    virtualHeight: buf.readUInt32LE(18),
    orientation: buf.readUInt8(22) * 90,
    quirks: buf.readUInt8(23),
  };
  if (banner.length < MINICAP_BANNER_BYTES)
    throw new MinicapProtocolError(
      `the minicap banner says it is ${banner.length} bytes, fewer than ${MINICAP_BANNER_BYTES}`,
    );
  return banner;
}

/**
 * Feed it the socket's chunks as they come, split anywhere; it hands back every frame completed by
 * each chunk. A broken stream (an oversized length, a frame that is not a JPEG) throws, and every
 * feed after that throws the same error: nothing after a lost frame boundary can be trusted.
 */
export class MinicapFrameReader {
  private chunks: Buffer[] = [];
  private buffered = 0;
  private bannerRead: MinicapBanner | null = null;
  /** the body length of the frame being read; null while its length is still to come */
  private frameLength: number | null = null;
  private broken: MinicapProtocolError | null = null;

  get banner(): MinicapBanner | null {
    return this.bannerRead;
  }

  feed(chunk: Buffer): Buffer[] {
    if (this.broken) throw this.broken;
    if (chunk.length > 0) {
      this.chunks.push(chunk);
      this.buffered += chunk.length;
    }
    try {
      return this.drain();
    } catch (err) {
      this.broken = err instanceof MinicapProtocolError ? err : new MinicapProtocolError(String(err));
      this.chunks = [];
      this.buffered = 0;
      throw this.broken;
    }
  }

  private drain(): Buffer[] {
    const frames: Buffer[] = [];
    if (!this.bannerRead) {
      // the length byte says how much to skip, so read the first two before the rest
      if (this.buffered < 2) return frames;
      const length = this.peekByte(1);
      const need = Math.max(length, MINICAP_BANNER_BYTES);
      if (this.buffered < need) return frames;
      this.bannerRead = parseMinicapBanner(this.take(need));
    }
    for (;;) {
      if (this.frameLength === null) {
        if (this.buffered < 4) return frames;
        const length = this.take(4).readUInt32LE(0);
        if (length === 0 || length > MINICAP_MAX_FRAME_BYTES)
          throw new MinicapProtocolError(`a minicap frame of ${length} bytes: the stream is broken`);
        this.frameLength = length;
      }
      if (this.buffered < this.frameLength) return frames;
      const frame = this.take(this.frameLength);
      this.frameLength = null;
      if (frame.length < 2 || frame[0] !== 0xff || frame[1] !== 0xd8)
        throw new MinicapProtocolError('a minicap frame that is not a JPEG: the stream is broken');
      frames.push(frame);
    }
  }

  private peekByte(index: number): number {
    let at = index;
    for (const c of this.chunks) {
      if (at < c.length) return c[at] as number;
      at -= c.length;
    }
    throw new MinicapProtocolError('peek past the buffered bytes');
  }

  /** The next `n` buffered bytes (n ≤ buffered), copied only when they span chunks. */
  private take(n: number): Buffer {
    const first = this.chunks[0] as Buffer;
    let out: Buffer;
    if (first.length >= n) {
      out = first.subarray(0, n);
      if (first.length === n) this.chunks.shift();
      else this.chunks[0] = first.subarray(n);
    } else {
      out = Buffer.allocUnsafe(n);
      let filled = 0;
      while (filled < n) {
        const c = this.chunks[0] as Buffer;
        const part = Math.min(c.length, n - filled);
        c.copy(out, filled, 0, part);
        filled += part;
        if (part === c.length) this.chunks.shift();
        else this.chunks[0] = c.subarray(part);
      }
    }
    this.buffered -= n;
    return out;
  }
}
