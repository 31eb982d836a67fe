import type { ApiErrorCode } from './api-errors';

/**
 * What went wrong, in the business's words. The admin's services throw an `ApiError` and know
 * nothing of HTTP; admin/http/errors.ts turns the kind into a status, in one table.
 */
export type ApiErrorKind =
  /** the input breaks a rule (a field, a file, a limit a setting sets) */
  | 'invalid'
  /** no one is logged in, or the credential is wrong */
  | 'unauthenticated'
  /** who asks is known but may not do this */
  | 'forbidden'
  | 'not_found'
  /** the state changed, or forbids this now (a task no longer a draft, a name taken) */
  | 'conflict'
  | 'too_large'
  /** a media type the admin does not take */
  | 'unsupported'
  /** well formed, but the admin will not act on it (an idempotency key reused, a file too costly to read) */
  | 'unprocessable'
  /** too many at once or too often (logins, phones waiting for approval) */
  | 'too_many'
  /** something the admin leans on (Temporal, the session store) does not answer right now */
  | 'unavailable';

/**
 * A refusal the admin makes on purpose. `code` is UPPER_SNAKE, stable and one of
 * domain/api-errors.ts (which holds the operator's Chinese for it); `message` says what to do;
 * `details` is what the client needs to act on it (the numbers of a limit, the fields).
 */
export class ApiError extends Error {
  override readonly name: string = 'ApiError';
  constructor(
    readonly kind: ApiErrorKind,
    readonly code: ApiErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

type Factory = (code: ApiErrorCode, message: string, details?: unknown) => ApiError;
const of =
  (kind: ApiErrorKind): Factory =>
  (code, message, details) =>
    new ApiError(kind, code, message, details);

export const invalidInput = of('invalid');
export const unauthenticated = of('unauthenticated');
export const forbidden = of('forbidden');
export const notFound = of('not_found');
export const conflict = of('conflict');
export const tooLarge = of('too_large');
export const unsupported = of('unsupported');
export const unprocessable = of('unprocessable');
export const tooMany = of('too_many');
export const unavailable = of('unavailable');
