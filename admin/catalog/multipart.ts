import busboy from 'busboy';
import type { Context } from 'koa';
import { HttpError, badRequest } from '../http/errors';
import { CatalogErrors } from './errors';

/** The Shopee export of ~11k rows is a few MB; this leaves room without inviting abuse. */
export const MAX_IMPORT_BYTES = 25 * 1024 * 1024;

/**
 * Reads one file field of a multipart body into memory, refusing anything larger than
 * `limit` (413) before it is buffered in full. Other fields are ignored; other files drained.
 */
export function readMultipartFile(ctx: Context, field: string, limit = MAX_IMPORT_BYTES): Promise<{ filename: string; bytes: Buffer }> {
  const type = ctx.get('content-type');
  if (!/^multipart\/form-data/iu.test(type)) {
    return Promise.reject(badRequest(CatalogErrors.EXPECTED_MULTIPART, `send the file as multipart/form-data in the field "${field}"`));
  }
  return new Promise((resolve, reject) => {
    let bb: busboy.Busboy;
    try {
      bb = busboy({ headers: ctx.req.headers, limits: { fileSize: limit, files: 2, fields: 20, parts: 30 } });
    } catch (err) {
      reject(badRequest(CatalogErrors.EXPECTED_MULTIPART, `malformed multipart request: ${(err as Error).message}`));
      return;
    }
    let found: { filename: string; bytes: Buffer } | undefined;
    let failure: HttpError | undefined;
    bb.on('file', (name, stream, info) => {
      if (name !== field || found || failure) {
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('limit', () => {
        failure = new HttpError(413, CatalogErrors.FILE_TOO_LARGE, `the file is larger than ${Math.round(limit / 1024 / 1024)} MB`);
      });
      stream.on('close', () => {
        if (!failure) found = { filename: info.filename ?? '', bytes: Buffer.concat(chunks) };
      });
    });
    bb.on('error', (err: Error) => reject(badRequest(CatalogErrors.EXPECTED_MULTIPART, `malformed multipart request: ${err.message}`)));
    bb.on('close', () => {
      if (failure) reject(failure);
      else if (!found) reject(badRequest(CatalogErrors.MISSING_FILE, `no file in the field "${field}"`));
      else resolve(found);
    });
    ctx.req.pipe(bb);
  });
}
