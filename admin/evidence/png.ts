import zlib from 'node:zlib';
import { invalidInput } from '../../domain/api-error';
import { EVIDENCE_LIMITS } from './limits';
import { decodeInWorker } from './png-decoder';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** signature + the IHDR chunk (length, type, 13 data bytes, CRC) */
export const PNG_HEADER_BYTES = 33;

export interface PngHeader {
  width: number;
  height: number;
  bitDepth: number;
  colorType: number;
}

const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

const notPng = (message: string) => invalidInput('EVIDENCE_NOT_PNG', message);
const invalid = (message: string) => invalidInput('EVIDENCE_PNG_INVALID', message);

/** Throws as soon as the first 8 bytes are not the PNG signature. */
export function checkSignature(head: Buffer): void {
  const n = Math.min(head.length, PNG_SIGNATURE.length);
  if (!head.subarray(0, n).equals(PNG_SIGNATURE.subarray(0, n)))
    throw notPng('the file does not start with the PNG signature');
}

/**
 * Reads the size from IHDR before anything is decoded, so a bomb declaring huge dimensions is
 * refused after 33 bytes. Interlaced and 16-bit images are refused too: no phone screenshot is
 * either, and both would need more memory per pixel than the limits are sized for.
 */
export function inspectHeader(head: Buffer): PngHeader {
  if (head.length < PNG_SIGNATURE.length) throw notPng('the file is too short to be a PNG');
  checkSignature(head);
  if (head.length < PNG_HEADER_BYTES) throw invalid('the PNG ends before its IHDR header');
  if (head.readUInt32BE(8) !== 13 || head.toString('latin1', 12, 16) !== 'IHDR')
    throw invalid('the PNG does not start with an IHDR chunk');
  const width = head.readUInt32BE(16);
  const height = head.readUInt32BE(20);
  const bitDepth = head[24]!;
  const colorType = head[25]!;
  const interlace = head[28]!;
  const { maxSidePx, maxPixels } = EVIDENCE_LIMITS;
  if (width < 1 || height < 1) throw invalid('the PNG declares an empty image');
  if (width > maxSidePx || height > maxSidePx || width * height > maxPixels) {
    throw invalidInput(
      'EVIDENCE_DIMENSIONS_TOO_LARGE',
      `a screenshot may be at most ${maxSidePx} px a side and ${maxPixels} px in all`,
      {
        width,
        height,
      },
    );
  }
  if (CHANNELS[colorType] === undefined) throw invalid(`unknown PNG colour type ${colorType}`);
  if (bitDepth > 8) throw invalid('16-bit PNGs are not accepted; screenshots are 8-bit');
  if (interlace !== 0) throw invalid('interlaced PNGs are not accepted; screenshots are not interlaced');
  return { width, height, bitDepth, colorType };
}

/** Bytes the image data must inflate to: one filter byte plus the packed pixels, per row. */
function inflatedSize(h: PngHeader): number {
  const bitsPerPixel = h.bitDepth * CHANNELS[h.colorType]!;
  return (Math.ceil((h.width * bitsPerPixel) / 8) + 1) * h.height;
}

/**
 * Where a compressed ancillary chunk's zlib stream starts, or -1 when the chunk holds none:
 * zTXt and iCCP are `name NUL method data`, iTXt `keyword NUL flag method lang NUL
 * translated NUL text` with the text compressed only when flag is 1.
 */
function compressedStart(type: string, data: Buffer): number {
  const nul = data.indexOf(0);
  if (nul < 0) return -1;
  if (type === 'zTXt' || type === 'iCCP') return nul + 2;
  if (type !== 'iTXt' || data[nul + 1] !== 1) return -1;
  const lang = data.indexOf(0, nul + 3);
  const translated = lang < 0 ? -1 : data.indexOf(0, lang + 1);
  return translated < 0 ? -1 : translated + 1;
}

/**
 * Ancillary chunks are stored and served as the device sent them, so they are bounded here:
 * a few KiB in all, and none that inflates past EVIDENCE_LIMITS.maxAncillaryInflatedBytes (a
 * 200 MB zTXt/iCCP/iTXt would be a bomb for whatever opens the screenshot later). pngjs reads
 * past them without inflating, so this is the only place they are looked at.
 */
function checkAncillary(type: string, data: Buffer, seen: { bytes: number }): void {
  seen.bytes += data.length;
  if (seen.bytes > EVIDENCE_LIMITS.maxAncillaryBytes)
    throw invalid(`the PNG carries more than ${EVIDENCE_LIMITS.maxAncillaryBytes} bytes of ancillary chunks`);
  const start = compressedStart(type, data);
  if (start < 0) return;
  try {
    zlib.inflateSync(data.subarray(start), { maxOutputLength: EVIDENCE_LIMITS.maxAncillaryInflatedBytes });
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
      throw invalidInput('EVIDENCE_PNG_BOMB', `the PNG's ${type} chunk inflates past its bound`);
    throw invalid(`the PNG's ${type} chunk is not valid zlib data`);
  }
}

function concatenatedIdat(file: Buffer): Buffer {
  const parts: Buffer[] = [];
  const ancillary = { bytes: 0 };
  let offset = PNG_SIGNATURE.length;
  let sawEnd = false;
  while (offset < file.length) {
    if (offset + 12 > file.length) throw invalid('the PNG is truncated inside a chunk header');
    const length = file.readUInt32BE(offset);
    const type = file.toString('latin1', offset + 4, offset + 8);
    const end = offset + 12 + length;
    if (end > file.length) throw invalid(`the PNG is truncated inside its ${type} chunk`);
    if (type === 'IDAT') parts.push(file.subarray(offset + 8, offset + 8 + length));
    // bit 5 of the first type byte (lower case) marks an ancillary chunk
    else if ((file[offset + 4]! & 0x20) !== 0)
      checkAncillary(type, file.subarray(offset + 8, offset + 8 + length), ancillary);
    offset = end;
    if (type === 'IEND') {
      sawEnd = true;
      break;
    }
  }
  if (!sawEnd) throw invalid('the PNG is truncated: no IEND chunk');
  if (parts.length === 0) throw invalid('the PNG has no image data');
  return Buffer.concat(parts);
}

/**
 * A full decode under a hard output bound, all of it in a worker thread: the image data is first
 * inflated with `maxOutputLength` one byte over what IHDR allows, so a decompression bomb stops
 * there; then pngjs decodes everything (CRCs, filters, palette) to prove the file is a real image.
 * The inflated pixels (about 8 MB for a phone screenshot) never reach the event loop's heap, whose
 * collector would otherwise pause every request and workflow task of the admin to free them.
 */
export async function decodeFully(file: Buffer, header: PngHeader): Promise<void> {
  const expected = inflatedSize(header);
  const idat = concatenatedIdat(file);
  const decoded = await decodeInWorker(file, idat, expected);
  if (decoded.ok) {
    if (decoded.width !== header.width || decoded.height !== header.height)
      throw invalid('the PNG does not decode: size changed while decoding');
    return;
  }
  switch (decoded.stage) {
    case 'bomb':
      throw invalidInput('EVIDENCE_PNG_BOMB', 'the image data inflates to more than its declared size');
    case 'zlib':
      throw invalid('the PNG image data is not valid zlib data');
    case 'short':
      throw invalid('the PNG image data is shorter than its declared size');
    case 'decode':
      throw invalid(`the PNG does not decode: ${decoded.message}`);
  }
}
