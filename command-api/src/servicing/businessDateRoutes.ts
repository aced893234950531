import Router from '@koa/router';
import { authenticate } from '../auth/authenticate.js';
import { ApiError } from '../http/apiError.js';
import { callerOf, metadataOf, type ApiDeps } from '../http/context.js';
import { closeBusinessDays } from './dayClose/closeBusinessDays.js';
import { sendReminders } from './reminders/sendReminders.js';
import { businessDateBody } from './servicingBodies.js';
import { endpoint } from '../http/endpoint.js';
import * as answers from '../http/answerSchemas.js';

/**
 * Outside production only (never mounted there): GET and POST /api/dev/business-date. Moving the
 * date forward runs the day close through it at once (every missed day, in order) and the
 * reminders due, so a test or a demo lives a loan through months in seconds. It never moves back.
 */
export function businessDateRoutes(deps: ApiDeps): Router {
  const router = new Router({ prefix: '/api/dev' });
  const { keys } = deps.readModels;

  const answer = async () => ({
    date: await deps.businessClock.today(),
    calendarDate: deps.businessClock.realToday(),
    lastDayClose: await deps.redis.get(deps.jobs.keys.lastDayClose),
  });

  router.get('/business-date', authenticate(deps.tokens, deps.readModels, ['borrower', 'admin', 'superadmin', 'auditor']), endpoint({ summary: 'Development only: the business date in force', answer: answers.businessDateAnswer }, async (ctx) => {
    ctx.body = await answer();
  }));

  router.post('/business-date', authenticate(deps.tokens, deps.readModels, ['admin', 'superadmin']), endpoint({ summary: 'Development only: move the business date forward, closing the days between', body: businessDateBody, answer: answers.movedBusinessDate, refusals: ['400 BUSINESS_DATE_BACKWARDS'] }, async (ctx, { body: { date } }) => {
    const today = await deps.businessClock.today();
    if (date < today) {
      const message = `The business date only moves forward; today is ${today}.`;
      throw new ApiError(400, 'BUSINESS_DATE_BACKWARDS', message, { fields: { date: message } });
    }
    await deps.businessClock.moveTo(date);
    const metadata = metadataOf(ctx, callerOf(ctx).id);
    const closed = await closeBusinessDays({ store: deps.store, redis: deps.redis, keys }, date, metadata);
    await deps.redis.set(deps.jobs.keys.lastDayClose, date);
    const reminders = await sendReminders({ store: deps.store, redis: deps.redis, keys, notificationQueue: deps.jobs.notificationQueue }, date, deps.now(), metadata);
    ctx.body = { ...(await answer()), closed: { loans: closed.loans, changed: closed.changed, events: closed.events }, remindersSent: reminders.sent };
  }));
  return router;
}
