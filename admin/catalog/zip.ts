import zlib from 'node:zlib';

/**
 * The few zip reads an xlsx import needs, over bytes already in memory: the central directory,
 * and one entry inflated as a stream of chunks. What an entry really inflates to is counted as
 * it comes out of zlib and may never pass what the directory declared for it: a zip whose
 * headers claim 100-byte parts cannot unpack to gigabytes, and nothing is ever spooled to disk
 * (docs/security.md "Imports").
 */
export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  /** what the central directory declares; an entry that inflates past it is refused */
  size: number;
  localOffset: number;
}

export class ZipUnreadable extends Error {
  override readonly name = 'ZipUnreadable';
}

/** An entry that inflates past its declared size (or its budget) — a lying or hostile zip. */
export class ZipEntryTooLarge extends Error {
  override readonly name = 'ZipEntryTooLarge';
}

const EOCD = 0x06054b50;
const CEN = 0x02014b50;
const LOC = 0x04034b50;
const MAX_ENTRIES = 10_000;
/** deflate expands at most ~1032:1, so one input slice can never make more than ~16 MB at once */
const INPUT_SLICE = 16 * 1024;

export function centralDirectory(bytes: Buffer): ZipEntry[] {
  const from = Math.max(0, bytes.length - 22 - 0xffff);
  let eocd = -1;
  for (let i = bytes.length - 22; i >= from; i--) {
    if (bytes.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new ZipUnreadable('no zip end-of-directory record');
  const count = bytes.readUInt16LE(eocd + 10);
  if (count > MAX_ENTRIES) throw new ZipUnreadable(`more than ${MAX_ENTRIES} zip entries`);
  let offset = bytes.readUInt32LE(eocd + 16);
  const entries: ZipEntry[] = [];
  for (let n = 0; n < count; n++) {
    if (offset + 46 > bytes.length || bytes.readUInt32LE(offset) !== CEN)
      throw new ZipUnreadable('broken zip central directory');
    const flags = bytes.readUInt16LE(offset + 8);
    const nameLen = bytes.readUInt16LE(offset + 28);
    const end = offset + 46 + nameLen + bytes.readUInt16LE(offset + 30) + bytes.readUInt16LE(offset + 32);
    if (end > bytes.length) throw new ZipUnreadable('broken zip central directory');
    const entry: ZipEntry = {
      name: bytes.toString('utf8', offset + 46, offset + 46 + nameLen),
      method: bytes.readUInt16LE(offset + 10),
      compressedSize: bytes.readUInt32LE(offset + 20),
      size: bytes.readUInt32LE(offset + 24),
      localOffset: bytes.readUInt32LE(offset + 42),
    };
    // zip64 (0xffffffff) parts are far beyond any workbook bound; encrypted ones are unreadable
    if (entry.size === 0xffffffff || entry.compressedSize === 0xffffffff)
      throw new ZipEntryTooLarge(`zip entry ${entry.name} is a zip64 entry`);
    if ((flags & 1) !== 0) throw new ZipUnreadable(`zip entry ${entry.name} is encrypted`);
    entries.push(entry);
    offset = end;
  }
  return entries;
}

function entryData(bytes: Buffer, entry: ZipEntry): Buffer {
  const at = entry.localOffset;
  if (at + 30 > bytes.length || bytes.readUInt32LE(at) !== LOC)
    throw new ZipUnreadable(`zip entry ${entry.name} has no local header`);
  const start = at + 30 + bytes.readUInt16LE(at + 26) + bytes.readUInt16LE(at + 28);
  if (start + entry.compressedSize > bytes.length) throw new ZipUnreadable(`zip entry ${entry.name} is cut short`);
  return bytes.subarray(start, start + entry.compressedSize);
}

/**
 * The entry's bytes as they inflate, in chunks of at most 64 KiB, never more than
 * `min(entry.size, budget)` in all: past it the inflater is destroyed and ZipEntryTooLarge
 * thrown, having produced at most one chunk too many.
 */
export async function* inflateEntry(bytes: Buffer, entry: ZipEntry, budget: number): AsyncGenerator<Buffer> {
  const data = entryData(bytes, entry);
  const limit = Math.min(entry.size, budget);
  const over = () =>
    new ZipEntryTooLarge(
      entry.size > budget
        ? `zip entry ${entry.name} unpacks to more than ${budget} bytes`
        : `zip entry ${entry.name} unpacks to more than the ${entry.size} bytes its header declares`,
    );
  if (entry.method === 0) {
    if (data.length > limit) throw over();
    for (let i = 0; i < data.length; i += 65536) yield data.subarray(i, i + 65536);
    return;
  }
  if (entry.method !== 8) throw new ZipUnreadable(`zip entry ${entry.name} uses compression method ${entry.method}`);
  const inflater = zlib.createInflateRaw({ chunkSize: 65536 });
  let failed: Error | undefined;
  inflater.on('error', (err) => (failed ??= err));
  // Fed slice by slice with backpressure, so zlib never runs far ahead of the reader.
  const feed = (async () => {
    for (let i = 0; i < data.length && !inflater.destroyed; i += INPUT_SLICE) {
      if (!inflater.write(data.subarray(i, i + INPUT_SLICE)))
        await new Promise<void>((resolve) => {
          const done = () => {
            inflater.off('drain', done);
            inflater.off('close', done);
            resolve();
          };
          inflater.on('drain', done);
          inflater.on('close', done);
        });
    }
    if (!inflater.destroyed) inflater.end();
  })();
  let total = 0;
  try {
    for await (const chunk of inflater as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > limit) throw over();
      yield chunk;
    }
  } catch (err) {
    if (err instanceof ZipEntryTooLarge) throw err;
    throw new ZipUnreadable(`zip entry ${entry.name} does not inflate: ${(failed ?? (err as Error)).message}`);
  } finally {
    inflater.destroy();
    await feed;
  }
}

/** A small entry (workbook.xml, its relationships) as text, within its budget. */
export async function entryText(bytes: Buffer, entry: ZipEntry, budget: number): Promise<string> {
  const parts: Buffer[] = [];
  for await (const chunk of inflateEntry(bytes, entry, budget)) parts.push(chunk);
  return Buffer.concat(parts).toString('utf8');
}
