import type { Middleware } from 'koa';
import { ZodError } from 'zod';
import type { ApiErrorCode } from '../../domain/api-errors';
import type { Logger } from '../../platform/logger';

/**
 * The error every route throws on purpose. `code` is UPPER_SNAKE, stable and one of
 * domain/api-errors.ts (which holds the operator's Chinese for it); `message` says what to do. Anything else that escapes is a bug: the client gets
 * a 500 with no stack trace and the log gets everything.
 */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  constructor(
    readonly status: number,
    readonly code: ApiErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

export const badRequest = (code: ApiErrorCode, message: string, details?: unknown) =>
  new HttpError(400, code, message, details);
export const notFound = (code: ApiErrorCode, message: string) => new HttpError(404, code, message);
export const conflict = (code: ApiErrorCode, message: string, details?: unknown) =>
  new HttpError(409, code, message, details);
export const unprocessable = (code: ApiErrorCode, message: string, details?: unknown) =>
  new HttpError(422, code, message, details);

/** The body of every error answer; typed, so the middleware's own codes need their row too. */
function errorBody(
  code: ApiErrorCode,
  message: string,
  details?: unknown,
): { error: { code: ApiErrorCode; message: string; details?: unknown } } {
  return { error: { code, message, ...(details === undefined ? {} : { details }) } };
}

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
        ctx.body = errorBody(err.code, err.message, err.details);
        return;
      }
      // koa-body-parser and friends throw http-errors with `status` and `expose`.
      const maybe = err as { status?: unknown; expose?: unknown; message?: unknown };
      if (typeof maybe.status === 'number' && maybe.status >= 400 && maybe.status < 500 && maybe.expose === true) {
        ctx.status = maybe.status;
        ctx.body = errorBody('BAD_REQUEST', String(maybe.message));
        return;
      }
      log.error({ err, method: ctx.method, path: ctx.path }, 'unhandled error');
      ctx.status = 500;
      ctx.body = errorBody('INTERNAL', 'internal error; the admin log has the details');
    }
  };
}
