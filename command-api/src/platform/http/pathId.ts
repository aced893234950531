import type { RouterContext } from '@koa/router';
import type { Context } from 'koa';
import { ApiError } from '../errors/apiError.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * A parameter of the matched route (`:name`), as @koa/router decoded it into `ctx.params` (which it
 * sets on every request a route matched); undefined when the route has no parameter by that name.
 * Koa's Context types `ctx.params` as `any`: this reads it with the router's own type.
 */
export function pathParam(ctx: Context, name: string): string | undefined {
  const params = ctx.params as RouterContext['params'];
  return params[name];
}

/** The `:id` (or another parameter) of a route, lowercased; anything that cannot be an id is answered 404 before a stream is read. */
export function idFromPath(ctx: Context, notFound: { code: string; message: string }, param = 'id'): string {
  const id = String(pathParam(ctx, param) ?? '').toLowerCase();
  if (!UUID.test(id)) throw new ApiError(404, notFound.code, notFound.message);
  return id;
}
