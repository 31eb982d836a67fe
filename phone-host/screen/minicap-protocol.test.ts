import {
  MINICAP_MAX_FRAME_BYTES,
  MinicapFrameReader,
  MinicapProtocolError,
  parseMinicapBanner,
} from './minicap-protocol';

function banner(over: { length?: number; orientation?: number } = {}): Buffer {
  const length = over.length ?? 24;
  const b = Buffer.alloc(length);
  b.writeUInt8(1, 0);
  b.writeUInt8(length, 1);
  b.writeUInt32LE(4321, 2);
  b.writeUInt32LE(1080, 6);
  b.writeUInt32LE(2376, 10);
  b.writeUInt32LE(582, 14);
  b.writeUInt32LE(1280, 18);
  b.writeUInt8(over.orientation ?? 1, 22);
  b.writeUInt8(2, 23);
  return b;
}

function jpeg(size: number, fill: number): Buffer {
  const body = Buffer.alloc(size, fill);
  body[0] = 0xff;
  body[1] = 0xd8;
  return body;
}

function framed(body: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32LE(body.length, 0);
  return Buffer.concat([len, body]);
}

const FRAMES = [jpeg(7, 1), jpeg(2, 2), jpeg(300, 3)];
const STREAM = Buffer.concat([banner(), ...FRAMES.map(framed)]);

/** Feeds `parts` in order, collecting every frame. */
function readAll(parts: Buffer[]): { frames: Buffer[]; reader: MinicapFrameReader } {
  const reader = new MinicapFrameReader();
  const frames: Buffer[] = [];
  for (const p of parts) frames.push(...reader.feed(p));
  return { frames, reader };
}

describe('parseMinicapBanner', () => {
  it('reads every field, the orientation in degrees', () => {
    expect(parseMinicapBanner(banner())).toEqual({
      version: 1,
      length: 24,
      pid: 4321,
      realWidth: 1080,
      realHeight: 2376,
      virtualWidth: 582,
      virtualHeight: 1280,
      orientation: 90,
      quirks: 2,
    });
    expect(parseMinicapBanner(banner({ orientation: 3 })).orientation).toBe(270);
  });

  it('refuses a short banner', () => {
    expect(() => parseMinicapBanner(banner().subarray(0, 23))).toThrow(MinicapProtocolError);
    expect(() =>
      parseMinicapBanner(Buffer.concat([banner().subarray(0, 1), Buffer.from([10]), Buffer.alloc(22)])),
    ).toThrow(/fewer than 24/);
  });
});

describe('MinicapFrameReader', () => {
  it('reads the banner and every frame from one chunk', () => {
    const { frames, reader } = readAll([STREAM]);
    expect(frames).toEqual(FRAMES);
    expect(reader.banner?.pid).toBe(4321);
  });

  it('gives the same frames however the stream is split in two', () => {
    for (let at = 0; at <= STREAM.length; at++) {
      const { frames } = readAll([STREAM.subarray(0, at), STREAM.subarray(at)]);
      expect(frames).toEqual(FRAMES);
    }
  });

  it('gives the same frames byte by byte, with empty chunks between', () => {
    const parts: Buffer[] = [];
    for (let i = 0; i < STREAM.length; i++) parts.push(STREAM.subarray(i, i + 1), Buffer.alloc(0));
    expect(readAll(parts).frames).toEqual(FRAMES);
  });

  it('gives the same frames split in three around the banner, a length and a body', () => {
    const awkward = [1, 2, 23, 24, 25, 27, 28, 29, 35, 38, 39, 41, 42, 43];
    for (const a of awkward)
      for (const b of awkward.filter((x) => x > a)) {
        const { frames } = readAll([STREAM.subarray(0, a), STREAM.subarray(a, b), STREAM.subarray(b)]);
        expect(frames).toEqual(FRAMES);
      }
  });

  it('hands back a frame only once its last byte came', () => {
    const reader = new MinicapFrameReader();
    const first = 24 + 4 + 7;
    expect(reader.feed(STREAM.subarray(0, first - 1))).toEqual([]);
    expect(reader.banner).not.toBeNull();
    expect(reader.feed(STREAM.subarray(first - 1, first))).toEqual([FRAMES[0]]);
  });

  it('skips the rest of a banner longer than 24 bytes', () => {
    const stream = Buffer.concat([banner({ length: 30 }), framed(jpeg(5, 9))]);
    for (let at = 0; at <= stream.length; at++)
      expect(readAll([stream.subarray(0, at), stream.subarray(at)]).frames).toEqual([jpeg(5, 9)]);
  });

  it('takes a frame of exactly the limit', () => {
    const big = jpeg(MINICAP_MAX_FRAME_BYTES, 0);
    expect(readAll([banner(), framed(big)]).frames[0]?.length).toBe(MINICAP_MAX_FRAME_BYTES);
  });

  it('calls a length over the limit a broken stream, and stays broken', () => {
    const len = Buffer.alloc(4);
    len.writeUInt32LE(MINICAP_MAX_FRAME_BYTES + 1, 0);
    const reader = new MinicapFrameReader();
    reader.feed(banner());
    expect(() => reader.feed(len)).toThrow(/broken/);
    expect(() => reader.feed(framed(jpeg(3, 1)))).toThrow(/broken/);
  });

  it('calls a zero length or a frame that is not a JPEG a broken stream', () => {
    expect(() => readAll([banner(), Buffer.alloc(4)])).toThrow(MinicapProtocolError);
    expect(() => readAll([banner(), framed(Buffer.from('not a jpeg'))])).toThrow(/not a JPEG/);
  });
});
