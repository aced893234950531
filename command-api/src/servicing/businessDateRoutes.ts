import Router from '@koa/router';
import { authenticate } from '../platform/sessions/authenticate.js';
import { ApiError } from '../platform/errors/apiError.js';
import { callerOf, metadataOf, type ApiDeps } from '../platform/context/context.js';
import { closeBusinessDays } from './dayClose/closeBusinessDays.js';
import { runDueWork } from './dayClose/dueWork.js';
import { businessDateBody } from './servicingBodies.js';
import { endpoint } from '../platform/http/endpoint.js';
import { adminAccess, mainAdminOnly } from '../staff/access/adminAccess.js';
import * as answers from '../platform/http/answerSchemas.js';

/**
 * Outside production only (never mounted there): GET and POST /api/dev/business-date. Moving the
 * date forward runs the day close through it at once (every missed day, in order) and what falls
 * due by the new date (the crossed days' reminders each on its own day, lapsed approvals, expired
 * four-eyes requests), so a test or a demo lives a loan through months in seconds. It never moves back.
 * Moving it closes days and charges late fees on every loan: the main admin's alone, from an
 * allowed address, checked against the event store like every other staff change.
 */
/**
 * How far one move may go. Every day in between is closed at once, in the request: a move to a
 * year like 2999 would hold the API for hours (the fuzzing check found one). Two years covers any
 * test or demo; further takes several moves.
 */
export const MAX_BUSINESS_DATE_MOVE_DAYS = 731;
const DAY_MS = 86_400_000;

export function businessDateRoutes(deps: ApiDeps): Router {
  const router = new Router({ prefix: '/api/dev' });
  const { keys } = deps.readModels;

  const answer = async () => ({
    date: await deps.businessClock.today(),
    calendarDate: deps.businessClock.realToday(),
    lastDayClose: await deps.redis.get(deps.jobs.keys.lastDayClose),
  });

  router.get(
    '/business-date',
    authenticate(deps.tokens, deps.readModels, ['borrower', 'admin', 'superadmin', 'auditor']),
    endpoint({ summary: 'Development only: the business date in force', answer: answers.businessDateAnswer }, async (ctx) => {
      ctx.body = await answer();
    }),
  );

  router.post(
    '/business-date',
    adminAccess(deps),
    mainAdminOnly('move the business date'),
    endpoint(
      {
        summary: 'Development only: move the business date forward, closing the days between (main admin only)',
        body: businessDateBody,
        answer: answers.movedBusinessDate,
        refusals: ['400 BUSINESS_DATE_BACKWARDS', '400 BUSINESS_DATE_TOO_FAR', '403 MAIN_ADMIN_ONLY'],
      },
      async (ctx, { body: { date } }) => {
        const today = await deps.businessClock.today();
        if (date < today) {
          const message = `The business date only moves forward; today is ${today}.`;
          throw new ApiError(400, 'BUSINESS_DATE_BACKWARDS', message, { fields: { date: message } });
        }
        if ((Date.parse(`${date}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / DAY_MS > MAX_BUSINESS_DATE_MOVE_DAYS) {
          const message = `The business date moves at most ${MAX_BUSINESS_DATE_MOVE_DAYS} days at a time; today is ${today}.`;
          throw new ApiError(400, 'BUSINESS_DATE_TOO_FAR', message, { fields: { date: message } });
        }
        await deps.businessClock.moveTo(date);
        const metadata = metadataOf(ctx, callerOf(ctx).id);
        const closed = await closeBusinessDays({ store: deps.store, redis: deps.redis, keys }, date, metadata);
        await deps.redis.set(deps.jobs.keys.lastDayClose, date);
        const due = await runDueWork({ store: deps.store, redis: deps.redis, keys, notificationQueue: deps.jobs.notificationQueue }, deps.businessClock, date, metadata, today);
        ctx.body = { ...(await answer()), closed: { loans: closed.loans, changed: closed.changed, events: closed.events }, remindersSent: due.reminders };
      },
    ),
  );
  return router;
}
