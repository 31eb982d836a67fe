import type { Middleware } from 'koa';
import { ZodError } from 'zod';
import type { Logger } from '../../platform/logger';

/**
 * The error every route throws on purpose. `code` is UPPER_SNAKE and stable (the UI maps it
 * to Chinese); `message` says what to do. Anything else that escapes is a bug: the client gets
 * a 500 with no stack trace and the log gets everything.
 */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

export const badRequest = (code: string, message: string, details?: unknown) => new HttpError(400, code, message, details);
export const notFound = (code: string, message: string) => new HttpError(404, code, message);
export const conflict = (code: string, message: string, details?: unknown) => new HttpError(409, code, message, details);

/** Turns a zod failure into the same shape every time, naming the fields. */
export function validationError(err: ZodError): HttpError {
  const issues = err.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
  const fields = [...new Set(issues.map((i) => i.path || '(body)'))].join(', ');
  return badRequest('VALIDATION_FAILED', `invalid input: ${fields}`, { issues });
}

export function errorMiddleware(log: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (raw) {
      const err = raw instanceof ZodError ? validationError(raw) : raw;
      if (err instanceof HttpError) {
        ctx.status = err.status;
        ctx.body = { error: { code: err.code, message: err.message, ...(err.details === undefined ? {} : { details: err.details }) } };
        return;
      }
      // koa-body-parser and friends throw http-errors with `status` and `expose`.
      const maybe = err as { status?: unknown; expose?: unknown; message?: unknown };
      if (typeof maybe.status === 'number' && maybe.status >= 400 && maybe.status < 500 && maybe.expose === true) {
        ctx.status = maybe.status;
        ctx.body = { error: { code: 'BAD_REQUEST', message: String(maybe.message) } };
        return;
      }
      log.error({ err, method: ctx.method, path: ctx.path }, 'unhandled error');
      ctx.status = 500;
      ctx.body = { error: { code: 'INTERNAL', message: 'internal error; the admin log has the details' } };
    }
  };
}
