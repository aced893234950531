import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import { metrics, secondsSince } from '@honeylend/observability';
import type { Logger } from '../logging/logger.js';

const REQUEST_ID = /^[\w-]{8,64}$/;
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

const requestSeconds = metrics.histogram({
  name: 'honeylend_http_request_duration_seconds',
  help: 'Time from a request arriving to its answer, by method, route pattern and status',
  labelNames: ['method', 'route', 'status'],
  buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
});

/**
 * The route pattern a request matched (`/api/admin/users/:id`), never the path itself: ids in a
 * label would make one series per member. API paths no route matched are `unmatched`; everything
 * else is the web app.
 */
function routeOf(ctx: Context): string {
  const matched = (ctx as Context & { _matchedRoute?: unknown })._matchedRoute;
  if (typeof matched === 'string') return matched;
  return ctx.path === '/api' || ctx.path.startsWith('/api/') ? 'unmatched' : 'web';
}

/**
 * Gives every request its id (a well-formed `X-Request-Id` from the client or a proxy, else a new
 * one), answers it in `X-Request-Id`, and when the request ends writes one log line (request id,
 * method, route, path — never the query string — status, duration) and observes the duration.
 * Routes write the id into the events they append (`metadataOf`) and the jobs they enqueue, so the
 * line, the events, the projections' and sockets' debug lines and the SMS worker's line share it.
 * At LOG_LEVEL=debug the line also carries the headers and body, with every secret redacted.
 */
export function requestLog(logger: Logger) {
  return async (ctx: Context, next: Next) => {
    const started = process.hrtime.bigint();
    const given = ctx.get('X-Request-Id');
    const requestId = REQUEST_ID.test(given) ? given : randomUUID();
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    try {
      await next();
    } finally {
      const seconds = secondsSince(started);
      const route = routeOf(ctx);
      const status = ctx.status;
      requestSeconds.observe({ method: METHODS.has(ctx.method) ? ctx.method : 'OTHER', route, status: String(status) }, seconds);
      if (logger.isLevelEnabled('info')) {
        const fields: Record<string, unknown> = { requestId, method: ctx.method, route, path: ctx.path, status, ms: Math.round(seconds * 10_000) / 10 };
        const errorCode = (ctx.body as { code?: unknown } | null | undefined)?.code;
        if (status >= 400 && typeof errorCode === 'string') fields.errorCode = errorCode;
        if (logger.isLevelEnabled('debug')) {
          fields.headers = ctx.headers;
          fields.query = ctx.query;
          fields.body = (ctx.request as { body?: unknown }).body;
        }
        logger.info('request', fields);
      }
    }
  };
}
