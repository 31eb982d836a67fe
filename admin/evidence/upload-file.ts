import crypto from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setTimeout as delay } from 'node:timers/promises';
import { ApiError, invalidInput, tooLarge } from '../../domain/api-error';
import { EVIDENCE_LIMITS } from './limits';
import { checkSignature, inspectHeader, PNG_HEADER_BYTES, type PngHeader } from './png';

/*
 * The file part of an evidence upload on its way to disk: a private temp file in the evidence
 * directory, checked as a PNG and hashed while it is written, fsynced before anyone may point at
 * it, and removed on any failure.
 */

export interface ReceivedFile {
  /** a private temp file in the evidence directory, fsynced; the caller renames or removes it */
  tmpPath: string;
  byteSize: number;
  sha256: string;
  header: PngHeader;
}

export const screenshotTooLarge = () =>
  tooLarge('EVIDENCE_TOO_LARGE', `a screenshot may be at most ${EVIDENCE_LIMITS.maxBytes} bytes`);

export async function removeQuietly(file: string | undefined): Promise<void> {
  if (file) await fs.promises.rm(file, { force: true }).catch(() => undefined);
}

/** Hashes and counts as it goes, and refuses a non-PNG or an oversized image from its first bytes. */
function pngSniffer(): {
  transform: Transform;
  result: () => { byteSize: number; sha256: string; header: PngHeader | undefined };
} {
  const hash = crypto.createHash('sha256');
  let byteSize = 0;
  let head = Buffer.alloc(0);
  let header: PngHeader | undefined;
  const transform = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      byteSize += chunk.length;
      if (byteSize > EVIDENCE_LIMITS.maxBytes) return cb(screenshotTooLarge());
      hash.update(chunk);
      if (!header) {
        head = Buffer.concat([head, chunk.subarray(0, PNG_HEADER_BYTES)]).subarray(0, PNG_HEADER_BYTES);
        try {
          if (head.length >= PNG_HEADER_BYTES) header = inspectHeader(head);
          else checkSignature(head);
        } catch (err) {
          return cb(err as Error);
        }
      }
      cb(null, chunk);
    },
    flush(cb) {
      if (!header) {
        try {
          inspectHeader(head); // throws the precise reason: not a PNG, or truncated
        } catch (err) {
          return cb(err as Error);
        }
      }
      cb();
    },
  });
  return { transform, result: () => ({ byteSize, sha256: hash.digest('hex'), header }) };
}

export async function writeTemp(stream: Readable, dir: string): Promise<ReceivedFile> {
  const tmpPath = path.join(dir, `.upload-${crypto.randomUUID()}.tmp`);
  const sniffer = pngSniffer();
  const out = fs.createWriteStream(tmpPath, { flags: 'wx', mode: 0o600 });
  try {
    await pipeline(stream, sniffer.transform, out);
    // The DB must never point at a file that a crash could leave half-written.
    const handle = await fs.promises.open(tmpPath, 'r+');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    const { byteSize, sha256, header } = sniffer.result();
    if (!header) throw invalidInput('EVIDENCE_NOT_PNG', 'the file is not a PNG');
    return { tmpPath, byteSize, sha256, header };
  } catch (err) {
    // A refusal can come before the file is even open: the stream still opens (creating the
    // file) and then closes, so the file is removed only once the stream has closed.
    if (!out.closed) await Promise.race([once(out, 'close').catch(() => undefined), delay(5_000)]);
    await removeQuietly(tmpPath);
    throw err instanceof ApiError
      ? err
      : invalidInput('EVIDENCE_UPLOAD_INCOMPLETE', 'the upload ended before the file was complete');
  }
}

/** Temp files of uploads that never finished (a crash, a kill) match this; swept at start. */
const UPLOAD_TEMP_RE = /^\.upload-[0-9a-f-]{36}\.tmp$/;

/**
 * Removes every upload temp file in `dir`. Only for start-up: while the admin serves, a
 * file matching the pattern may belong to an upload in flight.
 */
export function sweepStaleUploads(dir: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const removed = names.filter((n) => UPLOAD_TEMP_RE.test(n));
  for (const name of removed) fs.rmSync(path.join(dir, name), { force: true });
  return removed;
}
