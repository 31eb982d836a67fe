import {
  CODEC_H264,
  KeyFrameJoiner,
  ScrcpyVideoReader,
  codecName,
  serverCommand,
  socketName,
  type ScrcpyPacket,
} from './scrcpy-protocol';

/** What scrcpy-server 2.4 writes on its video socket, built by hand. */
function header(name = 'Pixel 8', codec = CODEC_H264, width = 584, height = 1280): Buffer {
  const field = Buffer.alloc(64);
  field.write(name, 'utf8');
  const meta = Buffer.alloc(12);
  meta.writeUInt32BE(codec, 0);
  meta.writeUInt32BE(width, 4);
  meta.writeUInt32BE(height, 8);
  return Buffer.concat([Buffer.from([0]), field, meta]);
}

function packet(flags: 'config' | 'key' | 'delta', pts: bigint, data: Buffer): Buffer {
  const head = Buffer.alloc(12);
  const value = flags === 'config' ? 1n << 63n : flags === 'key' ? pts | (1n << 62n) : pts;
  head.writeBigUInt64BE(value, 0);
  head.writeUInt32BE(data.length, 8);
  return Buffer.concat([head, data]);
}

const SPS_PPS = Buffer.from([0, 0, 0, 1, 0x67, 0x42, 0xc0, 0x1f, 0, 0, 0, 1, 0x68, 0xce]);
const IDR = Buffer.from([0, 0, 0, 1, 0x65, 0x88, 0x84]);
const P = Buffer.from([0, 0, 0, 1, 0x41, 0x9a, 0x02]);

describe('the scrcpy 2.4 video socket', () => {
  const wire = Buffer.concat([
    header(),
    packet('config', 0n, SPS_PPS),
    packet('key', 1_000n, IDR),
    packet('delta', 84_000n, P),
  ]);

  it('reads the header and the packets with their flags and PTS', () => {
    const reader = new ScrcpyVideoReader();
    const packets = reader.feed(wire);
    expect(reader.header).toEqual({ deviceName: 'Pixel 8', codec: CODEC_H264, width: 584, height: 1280 });
    expect(packets).toEqual<ScrcpyPacket[]>([
      { config: true, key: false, pts: null, data: SPS_PPS },
      { config: false, key: true, pts: 1_000n, data: IDR },
      { config: false, key: false, pts: 84_000n, data: P },
    ]);
  });

  it('reads the same from the bytes one at a time', () => {
    const reader = new ScrcpyVideoReader();
    const packets: ScrcpyPacket[] = [];
    for (let i = 0; i < wire.length; i++) packets.push(...reader.feed(wire.subarray(i, i + 1)));
    expect(reader.header?.deviceName).toBe('Pixel 8');
    expect(packets.map((p) => [p.config, p.key, p.data.length])).toEqual([
      [true, false, SPS_PPS.length],
      [false, true, IDR.length],
      [false, false, P.length],
    ]);
  });

  it('refuses a disabled stream, an impossible size and a huge packet', () => {
    expect(() => new ScrcpyVideoReader().feed(header('x', 0))).toThrow(/disabled the video stream/);
    expect(() => new ScrcpyVideoReader().feed(header('x', CODEC_H264, 0, 10))).toThrow(/video size of 0x10/);
    const huge = Buffer.alloc(12);
    huge.writeUInt32BE(9 * 1024 * 1024, 8);
    expect(() => new ScrcpyVideoReader().feed(Buffer.concat([header(), huge]))).toThrow(/packet of 9437184 bytes/);
  });

  it('puts the last config in front of every key frame and passes the others as they are', () => {
    const joiner = new KeyFrameJoiner();
    const reader = new ScrcpyVideoReader();
    const frames = reader
      .feed(Buffer.concat([wire, packet('key', 2_500_000n, IDR)]))
      .map((p) => joiner.push(p))
      .filter((f) => f !== null);
    expect(frames).toEqual([
      { frame: Buffer.concat([SPS_PPS, IDR]), key: true },
      { frame: P, key: false },
      { frame: Buffer.concat([SPS_PPS, IDR]), key: true },
    ]);
  });

  it('names codecs, sockets and the start line as the server wants them', () => {
    expect(codecName(CODEC_H264)).toBe('h264');
    expect(codecName(0x00617631)).toBe('av1');
    expect(codecName(0x01020304)).toBe('0x1020304');
    expect(socketName(0xabcd)).toBe('scrcpy_0000abcd');
    expect(serverCommand('/data/local/tmp/scrcpy-server.jar', { scid: 0xabcd, maxSize: 1280, maxFps: 15 })).toBe(
      'CLASSPATH=/data/local/tmp/scrcpy-server.jar app_process / com.genymobile.scrcpy.Server 2.4 scid=0000abcd ' +
        'log_level=info tunnel_forward=true audio=false control=false cleanup=false video_codec=h264 max_size=1280 max_fps=15',
    );
  });
});
