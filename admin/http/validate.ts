import type { Context } from 'koa';
import type { z } from 'zod';
import { validationError } from './errors';

/** Routes validate every input with zod before a service sees it. */
export function parseBody<S extends z.ZodType>(ctx: Context, schema: S): z.infer<S> {
  const result = schema.safeParse((ctx.request as { body?: unknown }).body ?? {});
  if (!result.success) throw validationError(result.error);
  return result.data;
}

export function parseQuery<S extends z.ZodType>(ctx: Context, schema: S): z.infer<S> {
  const result = schema.safeParse(ctx.query);
  if (!result.success) throw validationError(result.error);
  return result.data;
}

export function parseParams<S extends z.ZodType>(ctx: Context, schema: S): z.infer<S> {
  const result = schema.safeParse((ctx as unknown as { params: unknown }).params);
  if (!result.success) throw validationError(result.error);
  return result.data;
}
