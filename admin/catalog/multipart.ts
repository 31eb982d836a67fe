import busboy from 'busboy';
import type { Context } from 'koa';
import { ApiError, invalidInput, tooLarge } from '../../domain/api-error';
import { CatalogErrors } from './errors';

/** The Shopee export of ~11k rows is a few MB; this leaves room without inviting abuse. */
const MAX_IMPORT_BYTES = 25 * 1024 * 1024;

const malformed = (detail: string) =>
  invalidInput(CatalogErrors.EXPECTED_MULTIPART, `malformed multipart request: ${detail}`);

/**
 * Reads one file field of a multipart body into memory, refusing anything larger than
 * `limit` (413) before it is buffered in full. Other fields are ignored; other files drained.
 *
 * Every stream involved (the request, busboy, each file part) has an `error` listener: an
 * `error` event nobody listens to is an uncaught exception, and a body cut inside a file
 * part is exactly that. The promise settles once, whatever order the events come in.
 */
export function readMultipartFile(
  ctx: Context,
  field: string,
  limit = MAX_IMPORT_BYTES,
): Promise<{ filename: string; bytes: Buffer }> {
  const type = ctx.get('content-type');
  if (!/^multipart\/form-data/iu.test(type)) {
    return Promise.reject(
      invalidInput(CatalogErrors.EXPECTED_MULTIPART, `send the file as multipart/form-data in the field "${field}"`),
    );
  }
  return new Promise((resolve, reject) => {
    const req = ctx.req;
    let bb: busboy.Busboy;
    try {
      bb = busboy({ headers: req.headers, limits: { fileSize: limit, files: 2, fields: 20, parts: 30 } });
    } catch (err) {
      reject(malformed((err as Error).message));
      return;
    }
    let found: { filename: string; bytes: Buffer } | undefined;
    let failure: ApiError | undefined;
    let settled = false;
    const fail = (err: ApiError) => {
      if (settled) return;
      settled = true;
      req.unpipe(bb);
      req.resume(); // drain what is still coming so the client reads the answer
      reject(err);
    };

    bb.on('file', (name, stream, info) => {
      stream.on('error', (err: Error) => fail(malformed(err.message)));
      if (name !== field || found || failure || settled) {
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('limit', () => {
        failure = tooLarge(
          CatalogErrors.FILE_TOO_LARGE,
          `the file is larger than ${Math.round(limit / 1024 / 1024)} MB`,
        );
      });
      stream.on('end', () => {
        if (!failure) found = { filename: info.filename ?? '', bytes: Buffer.concat(chunks) };
      });
    });
    bb.on('error', (err: Error) => fail(malformed(err.message)));
    bb.on('close', () => {
      if (failure) fail(failure);
      else if (!found) fail(invalidInput(CatalogErrors.MISSING_FILE, `no file in the field "${field}"`));
      else if (!settled) {
        settled = true;
        resolve(found);
      }
    });
    req.on('error', () => fail(malformed('the request failed while it was read')));
    req.on('close', () => {
      if (!req.complete) fail(malformed('the client went away mid-upload'));
    });
    req.pipe(bb);
  });
}
