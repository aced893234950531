import Router from '@koa/router';
import { adminDailyStatsAnswerSchema } from '@honeylend/contracts';
import { z } from 'zod';
import { ADMIN_DAILY_STATS_DAYS } from '@honeylend/contracts';
import type { ApiDeps } from '../platform/context/context.js';
import { adminAccess } from '../staff/access/adminAccess.js';
import { readAdminStats } from './readAdminStats.js';
import { readDailyStats } from './readDailyStats.js';
import { endpoint } from '../platform/http/endpoint.js';
import * as answers from '../platform/http/answerSchemas.js';

const DAYS_MESSAGE = `Days must be a whole number from ${ADMIN_DAILY_STATS_DAYS.min} to ${ADMIN_DAILY_STATS_DAYS.max}`;

/** ?days=N; a repeated or non-numeric value is refused like an out-of-range one. */
export const dailyStatsQuery = z.object({
  days: z
    .string({ error: DAYS_MESSAGE })
    .regex(/^\d{1,3}$/, DAYS_MESSAGE)
    .transform(Number)
    .pipe(z.number().min(ADMIN_DAILY_STATS_DAYS.min, DAYS_MESSAGE).max(ADMIN_DAILY_STATS_DAYS.max, DAYS_MESSAGE))
    .optional()
    .transform((value) => value ?? ADMIN_DAILY_STATS_DAYS.default),
});

/** GET /api/admin/stats: the stat cards; GET /api/admin/stats/daily?days=N: the charts. */
export function adminStatsRoutes(deps: ApiDeps): Router {
  const router = new Router({ prefix: '/api/admin/stats' });
  router.use(adminAccess(deps));
  router.get(
    '/',
    endpoint({ summary: 'The stat cards: withdrawals, loans, members', answer: answers.adminStatsAnswer }, async (ctx) => {
      ctx.body = await readAdminStats(deps);
    }),
  );
  router.get(
    '/daily',
    endpoint({ summary: 'Daily figures for the charts', query: dailyStatsQuery, answer: adminDailyStatsAnswerSchema }, async (ctx, { query: { days } }) => {
      ctx.body = await readDailyStats(deps, days);
    }),
  );
  return router;
}
