import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import type { Logger } from './logger.js';

const REQUEST_ID = /^[\w-]{8,64}$/;

/** One line per request: method, path (never the query string, which could carry a secret), status, ms. */
export function requestLog(logger: Logger) {
  return async (ctx: Context, next: Next) => {
    const started = process.hrtime.bigint();
    const given = ctx.get('X-Request-Id');
    ctx.state.requestId = REQUEST_ID.test(given) ? given : randomUUID();
    ctx.set('X-Request-Id', ctx.state.requestId);
    try {
      await next();
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      logger.info('request', {
        requestId: ctx.state.requestId,
        method: ctx.method,
        path: ctx.path,
        status: ctx.status,
        ms: Math.round(ms * 10) / 10,
      });
    }
  };
}
