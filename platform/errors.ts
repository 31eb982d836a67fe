/**
 * The one way to turn anything thrown into a line for a log or a message. A thrown value need
 * not be an Error (a string, a rejected promise's value), and `(err as Error).message` then
 * logs `undefined`, which hides the failure it was meant to show.
 */
export function describeError(err: unknown): string {
  if (err instanceof Error) return err.message;
  if (typeof err === 'object' && err !== null && typeof (err as { message?: unknown }).message === 'string') {
    return (err as { message: string }).message;
  }
  return String(err);
}
