import Router from '@koa/router';
import { ratesAnswerSchema, smsOutboxEntrySchema } from '@honeylend/contracts';
import { z } from 'zod';
import { readRates, readSmsOutbox } from '@honeylend/contracts/server';
import { authenticate } from '../platform/sessions/authenticate.js';
import { callerOf, type ApiDeps } from '../platform/context/context.js';
import { endpoint } from '../platform/http/endpoint.js';

export function ratesRoutes(deps: ApiDeps): Router {
  const router = new Router({ prefix: '/api' });
  /** PHP exchange rates with their real stored daily history (or the labelled fallback rates). */
  router.get(
    '/rates',
    endpoint({ summary: 'PHP exchange rates with their daily history', public: true, answer: ratesAnswerSchema }, async (ctx) => {
      ctx.body = await readRates(deps.redis, deps.jobs.keys, deps.now());
    }),
  );
  return router;
}

/**
 * GET /api/dev/outbox: the texts the development SMS sender "sent", newest first — so a developer
 * (and the browser tests) can read an OTP without a phone. It stands in for the caller's own
 * phone: everyone, staff included, sees only the texts sent to their own number — an admin who
 * could read members' one-time codes here would make them no second factor (design §7). An
 * account without a number sees nothing. Never mounted in production.
 */
export function devOutboxRoutes(deps: ApiDeps): Router {
  const router = new Router({ prefix: '/api/dev' });
  router.get(
    '/outbox',
    authenticate(deps.tokens, deps.readModels, ['borrower', 'admin', 'superadmin', 'auditor']),
    endpoint({ summary: 'Development only: the texts sent to the caller’s own number', answer: z.array(smsOutboxEntrySchema.strict()) }, async (ctx) => {
      const caller = callerOf(ctx);
      const account = caller.role === 'borrower' ? await deps.readModels.member(caller.id) : await deps.readModels.admin(caller.id);
      ctx.body = account?.phone ? await readSmsOutbox(deps.redis, deps.jobs.keys, { to: account.phone, limit: 100 }) : [];
    }),
  );
  return router;
}
