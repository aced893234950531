import type { Context } from 'koa';
import type { z } from 'zod';

/** Validates the JSON body; a ZodError becomes a 400 with field messages in the error middleware. */
export function parseBody<S extends z.ZodType>(ctx: Context, schema: S): z.output<S> {
  const body = (ctx.request as { body?: unknown }).body;
  return schema.parse(body ?? {});
}
