import crypto from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setTimeout as delay } from 'node:timers/promises';
import busboy from 'busboy';
import { HttpError } from '../http/errors';
import { EVIDENCE_LIMITS } from './limits';
import { checkSignature, inspectHeader, PNG_HEADER_BYTES, type PngHeader } from './png';

export interface ReceivedFile {
  /** a private temp file in the evidence directory, fsynced; the caller renames or removes it */
  tmpPath: string;
  byteSize: number;
  sha256: string;
  header: PngHeader;
}

export interface ReceivedUpload {
  fields: Record<string, string>;
  file: ReceivedFile | undefined;
}

const tooLarge = () =>
  new HttpError(413, 'EVIDENCE_TOO_LARGE', `a screenshot may be at most ${EVIDENCE_LIMITS.maxBytes} bytes`);

export async function removeQuietly(file: string | undefined): Promise<void> {
  if (file) await fs.promises.rm(file, { force: true }).catch(() => undefined);
}

/**
 * Reads (and drops) what the client is still sending, up to a cap, so it gets to see our
 * answer; past the cap the connection is cut instead.
 */
function discardRest(req: IncomingMessage): void {
  let dropped = 0;
  req.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > EVIDENCE_LIMITS.maxDiscardBytes) req.destroy();
  });
  req.resume();
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
      if (byteSize > EVIDENCE_LIMITS.maxBytes) return cb(tooLarge());
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

async function writeTemp(stream: Readable, dir: string): Promise<ReceivedFile> {
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
    if (!header) throw new HttpError(400, 'EVIDENCE_NOT_PNG', 'the file is not a PNG');
    return { tmpPath, byteSize, sha256, header };
  } catch (err) {
    // A refusal can come before the file is even open: the stream still opens (creating the
    // file) and then closes, so the file is removed only once the stream has closed.
    if (!out.closed) await Promise.race([once(out, 'close').catch(() => undefined), delay(5_000)]);
    await removeQuietly(tmpPath);
    throw err instanceof HttpError
      ? err
      : new HttpError(400, 'EVIDENCE_UPLOAD_INCOMPLETE', 'the upload ended before the file was complete');
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

/**
 * Streams one multipart upload: text fields into memory (small, bounded), the `file` part
 * through a sniffer into a temp file in the evidence directory. Stops reading as soon as any
 * limit is crossed. On failure nothing is left on disk and no descriptor stays open: a file
 * part that arrives after a failure is drained, not written, and a temp file whose writing
 * finishes after a failure is removed when it does.
 */
export function receiveEvidenceUpload(req: IncomingMessage, dir: string): Promise<ReceivedUpload> {
  return new Promise<ReceivedUpload>((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        limits: {
          files: 1,
          fileSize: EVIDENCE_LIMITS.maxBytes + 1,
          fields: 16,
          fieldSize: 1024,
          fieldNameSize: 64,
          parts: 20,
        },
      });
    } catch {
      reject(new HttpError(415, 'UNSUPPORTED_MEDIA_TYPE', 'send multipart/form-data with a boundary'));
      return;
    }
    const fields: Record<string, string> = {};
    let fileStream: Readable | undefined;
    let written: Promise<ReceivedFile> | undefined;
    let failed = false;

    const fail = (err: HttpError) => {
      if (failed) return;
      failed = true;
      req.unpipe(parser);
      discardRest(req);
      fileStream?.destroy(err);
      void (written ?? Promise.resolve(undefined))
        .then(
          (file) => removeQuietly(file?.tmpPath),
          () => undefined, // writeTemp cleaned up after itself
        )
        .then(() => reject(err));
    };

    parser.on('field', (name, value, info) => {
      if (info.nameTruncated || info.valueTruncated)
        return fail(new HttpError(400, 'EVIDENCE_FIELD_TOO_LONG', `field ${name.slice(0, 64)} is too long`));
      if (Object.prototype.hasOwnProperty.call(fields, name))
        return fail(new HttpError(400, 'EVIDENCE_DUPLICATE_FIELD', `field ${name} is sent twice`));
      fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      // busboy may still hand over a part it had buffered before a failure: it is drained,
      // and its errors (a cut body) are answered here rather than crashing the process.
      stream.on('error', () =>
        fail(new HttpError(400, 'EVIDENCE_UPLOAD_INCOMPLETE', 'the upload ended before the file was complete')),
      );
      if (failed) {
        stream.resume();
        return;
      }
      if (name !== 'file' || written) {
        stream.resume();
        return fail(new HttpError(400, 'EVIDENCE_UNEXPECTED_FILE', 'send exactly one file, in the field "file"'));
      }
      if (info.mimeType !== 'image/png') {
        stream.resume();
        return fail(
          new HttpError(
            415,
            'EVIDENCE_NOT_PNG',
            `the file is declared as ${info.mimeType}; only image/png is accepted`,
          ),
        );
      }
      fileStream = stream;
      stream.on('limit', () => fail(tooLarge()));
      const writing = writeTemp(stream, dir);
      written = writing;
      writing.then(
        (file) => (failed ? removeQuietly(file.tmpPath) : undefined),
        (err: unknown) =>
          fail(err instanceof HttpError ? err : new HttpError(400, 'EVIDENCE_UPLOAD_INCOMPLETE', 'the upload failed')),
      );
    });
    for (const limit of ['partsLimit', 'filesLimit', 'fieldsLimit'] as const) {
      parser.on(limit, () => fail(new HttpError(400, 'EVIDENCE_TOO_MANY_PARTS', 'too many parts in the upload')));
    }
    parser.on('error', () =>
      fail(new HttpError(400, 'EVIDENCE_MALFORMED_MULTIPART', 'the multipart body is malformed or incomplete')),
    );
    parser.on('close', () => {
      if (failed) return;
      (written ?? Promise.resolve(undefined)).then(
        (file) => (failed ? removeQuietly(file?.tmpPath) : resolve({ fields, file })),
        () => undefined, // fail() already answered
      );
    });
    req.on('error', () => fail(new HttpError(400, 'EVIDENCE_UPLOAD_INCOMPLETE', 'the client went away mid-upload')));
    req.on('close', () => {
      if (!req.complete) fail(new HttpError(400, 'EVIDENCE_UPLOAD_INCOMPLETE', 'the client went away mid-upload'));
    });
    req.pipe(parser);
  });
}
