import { avcCodecString, isKeyFrame, nalType, nalUnits } from './h264';

const bytes = (...b: number[]): Uint8Array => Uint8Array.from(b);

describe('H.264 access units as a browser reads them', () => {
  // what libx264 writes for a first picture: SPS, PPS (3-byte start code), IDR slice
  const key = bytes(
    0,
    0,
    0,
    1,
    0x67,
    0x42,
    0xc0,
    0x1f,
    0xda,
    0,
    0,
    1,
    0x68,
    0xce,
    0x0f,
    0,
    0,
    0,
    1,
    0x65,
    0x88,
    0x84,
    0,
  );
  const delta = bytes(0, 0, 0, 1, 0x41, 0x9a, 0x02);

  it('splits at 3- and 4-byte start codes, the zeros of a start code not in the unit before', () => {
    expect(nalUnits(key).map((u) => Array.from(u))).toEqual([
      [0x67, 0x42, 0xc0, 0x1f, 0xda],
      [0x68, 0xce, 0x0f],
      [0x65, 0x88, 0x84],
    ]);
    expect(nalUnits(key).map(nalType)).toEqual([7, 8, 5]);
    expect(nalUnits(bytes(1, 2, 3))).toEqual([]);
  });

  it('tells a key frame by its IDR picture', () => {
    expect(isKeyFrame(key)).toBe(true);
    expect(isKeyFrame(delta)).toBe(false);
  });

  it('names the codec from the SPS: profile, constraint flags, level', () => {
    expect(avcCodecString(key)).toBe('avc1.42c01f');
    expect(avcCodecString(bytes(0, 0, 1, 0x67, 0x64, 0x00, 0x28))).toBe('avc1.640028');
    expect(avcCodecString(delta)).toBeNull();
  });
});
