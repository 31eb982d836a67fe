import crypto from 'node:crypto';
import zlib from 'node:zlib';
import { PNG } from 'pngjs';

/** Real, decodable PNGs and hand-made malicious ones for the evidence tests. */
export function realPng(width = 64, height = 48, seed = 1): Buffer {
  const png = new PNG({ width, height });
  for (let i = 0; i < png.data.length; i++) png.data[i] = (i * 31 + seed * 17) & 0xff;
  return PNG.sync.write(png);
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(typed));
  return Buffer.concat([len, typed, crc]);
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A well-formed PNG (valid CRCs) with any IHDR and any image data. */
export function craftedPng(opts: {
  width: number;
  height: number;
  bitDepth?: number;
  colorType?: number;
  interlace?: number;
  idat: Buffer;
}): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(opts.width, 0);
  ihdr.writeUInt32BE(opts.height, 4);
  ihdr[8] = opts.bitDepth ?? 8;
  ihdr[9] = opts.colorType ?? 6;
  ihdr[10] = 0;
  ihdr[11] = 0;
  ihdr[12] = opts.interlace ?? 0;
  return Buffer.concat([SIGNATURE, chunk('IHDR', ihdr), chunk('IDAT', opts.idat), chunk('IEND', Buffer.alloc(0))]);
}

/** 100 × 100 declared, but the image data inflates to 64 MiB of zeros (~64 KiB on the wire). */
export function decompressionBomb(): Buffer {
  return craftedPng({ width: 100, height: 100, idat: zlib.deflateSync(Buffer.alloc(64 * 1024 * 1024), { level: 9 }) });
}

/** Tiny on the wire, 100 000 × 100 000 declared: must be refused from its header alone. */
export function hugeDimensionsPng(width = 100_000, height = 100_000): Buffer {
  return craftedPng({ width, height, idat: zlib.deflateSync(Buffer.alloc(1024)) });
}

export function sha256Hex(bytes: Buffer): string {
  return crypto.createHash('sha256').update(bytes).digest('hex');
}
