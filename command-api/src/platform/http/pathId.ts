import type { Context } from 'koa';
import { ApiError } from '../errors/apiError.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The `:id` (or another parameter) of a route, lowercased; anything that cannot be an id is answered 404 before a stream is read. */
export function idFromPath(ctx: Context, notFound: { code: string; message: string }, param = 'id'): string {
  const id = String(ctx.params[param] ?? '').toLowerCase();
  if (!UUID.test(id)) throw new ApiError(404, notFound.code, notFound.message);
  return id;
}
