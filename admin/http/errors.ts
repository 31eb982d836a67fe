import type { Middleware } from 'koa';
import { ZodError } from 'zod';
import { ApiError, invalidInput, type ApiErrorKind } from '../../domain/api-error';
import type { ApiErrorCode } from '../../domain/api-errors';
import type { Logger } from '../../platform/logger';

/** The one place a business refusal becomes an HTTP status. */
const STATUS_OF_KIND: Record<ApiErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  unsupported: 415,
  unprocessable: 422,
  too_many: 429,
  unavailable: 503,
};

/**
 * The HTTP layer's own answers about the request itself (its host, its body, its path), which
 * no service makes. Everything else a route means to answer is an `ApiError`
 * (domain/api-error.ts); anything else that escapes is a bug: the client gets a 500 with no
 * stack trace and the log gets everything.
 */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  constructor(
    readonly status: number,
    readonly code: ApiErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** The body of every error answer; typed, so the middleware's own codes need their row too. */
export function errorBody(
  code: ApiErrorCode,
  message: string,
  details?: unknown,
): { error: { code: ApiErrorCode; message: string; details?: unknown } } {
  return { error: { code, message, ...(details === undefined ? {} : { details }) } };
}

/** Turns a zod failure into the same shape every time, naming the fields. */
export function validationError(err: ZodError): ApiError {
  const issues = err.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
  const fields = [...new Set(issues.map((i) => i.path || '(body)'))].join(', ');
  return invalidInput('VALIDATION_FAILED', `invalid input: ${fields}`, { issues });
}

export function errorMiddleware(log: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (raw) {
      const err = raw instanceof ZodError ? validationError(raw) : raw;
      if (err instanceof ApiError) {
        ctx.status = STATUS_OF_KIND[err.kind];
        ctx.body = errorBody(err.code, err.message, err.details);
        return;
      }
      if (err instanceof HttpError) {
        ctx.status = err.status;
        ctx.body = errorBody(err.code, err.message);
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
