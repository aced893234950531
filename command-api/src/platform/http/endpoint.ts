import type { Context, Next } from 'koa';
import type { z } from 'zod';

/** What a route answers on success that is not JSON: a file, in one of these media types. */
export interface FileAnswer {
  file: readonly string[];
}

/**
 * How a route describes itself, declared where the route is defined. The request schemas are the
 * ones the route validates with (`endpoint` parses with them before the handler runs), so the API
 * reference (/api/openapi.json), the fuzzing check and the handler cannot disagree about them.
 */
export interface EndpointDoc {
  /** One line for the API reference. */
  summary: string;
  /** Longer notes (who may call it, what it changes). */
  description?: string;
  /** The JSON body's schema; the route reads no body when absent. */
  body?: z.ZodType;
  /** The query string's schema; the route reads no query parameters when absent (any sent are ignored). */
  query?: z.ZodType;
  /** A multipart/form-data image upload in the field `file` (instead of a JSON body). */
  upload?: { field: 'file'; mediaTypes: readonly string[] };
  /** The success answer: a schema of the JSON sent back, or the media types of a file. */
  answer: z.ZodType | FileAnswer;
  /** The success status (default 200). */
  status?: number;
  /**
   * Refusals a well-formed request may get by a business rule or the server's state, as
   * `status CODE` (`409 LOAN_EXISTS`) or a bare status. A refusal of a body's own fields is no
   * business rule: it belongs in the body schema (and is answered 400 from it).
   */
  refusals?: readonly string[];
  /** The request must be signed by the payment provider (X-Signature over the exact body). */
  signedBody?: boolean;
  /** Anyone may call it without a token. */
  public?: boolean;
}

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

/** The validated request a handler gets: the body and the query as their schemas parsed them. */
export interface EndpointInput<B, Q> {
  body: Parsed<B>;
  query: Parsed<Q>;
}

/** A route's middleware carrying its documentation, as `router.routes()` carries its router. */
export type DocumentedMiddleware = ((ctx: Context, next: Next) => Promise<unknown>) & { endpoint: EndpointDoc };

/**
 * A route handler with its documentation: the body and the query are parsed with the declared
 * schemas (a ZodError becomes a 400 in the error middleware) and handed to the handler, which
 * never reads `ctx.request.body` or `ctx.query` itself. Whoever reads the route table (the
 * OpenAPI document, the resilience checks) finds the documentation on the middleware.
 */
export function endpoint<const D extends EndpointDoc>(doc: D, handler: (ctx: Context, input: EndpointInput<D['body'], D['query']>, next: Next) => unknown): DocumentedMiddleware {
  const middleware = async (ctx: Context, next: Next) => {
    const body = doc.body ? doc.body.parse((ctx.request as { body?: unknown }).body ?? {}) : undefined;
    const query = doc.query ? doc.query.parse(ctx.query) : undefined;
    await handler(ctx, { body, query } as EndpointInput<D['body'], D['query']>, next);
  };
  return Object.assign(middleware, { endpoint: doc });
}

/** The documentation a middleware carries, if it is an endpoint. */
export function endpointOf(middleware: unknown): EndpointDoc | undefined {
  return typeof middleware === 'function' ? (middleware as Partial<DocumentedMiddleware>).endpoint : undefined;
}
