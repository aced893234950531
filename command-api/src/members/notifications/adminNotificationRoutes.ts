import Router from '@koa/router';
import { z } from 'zod';
import { notificationTypeSchema } from '@honeylend/contracts';
import { readAfterWrite } from '../../platform/consistency/readAfterWrite.js';
import { ApiError } from '../../platform/errors/apiError.js';
import { callerOf, type ApiDeps } from '../../platform/context/context.js';
import { adminAccess } from '../../staff/access/adminAccess.js';
import { notifyMember } from './notifyMember.js';
import { endpoint } from '../../platform/http/endpoint.js';
import * as answers from '../../platform/http/answerSchemas.js';
import { refineMoneyRequests } from '../../platform/text/refuseMoneyRequests.js';

export const notificationBody = z
  .object({
    userId: z.uuid({ error: 'Choose the member to notify' }),
    title: z.string({ error: 'Enter a title' }).trim().min(1, 'Enter a title').max(120, 'Keep the title under 120 characters'),
    message: z.string({ error: 'Enter a message' }).trim().min(1, 'Enter a message').max(1000, 'Keep the message under 1000 characters'),
    type: z.enum(notificationTypeSchema.options, { error: `Type must be one of ${notificationTypeSchema.options.join(', ')}` }).default('general'),
  })
  // Staff text may never ask the borrower for money (400 MONEY_REQUEST on the field that does).
  .superRefine((body, ctx) => refineMoneyRequests(ctx, { title: body.title, message: body.message }, 'A message to a member'));

/** Spec §7: POST /api/admin/notifications — a message in the member's app and by SMS. */
export function adminNotificationRoutes(deps: ApiDeps): Router {
  const router = new Router({ prefix: '/api/admin/notifications' });
  router.use(adminAccess(deps));

  router.post(
    '/',
    endpoint(
      { summary: 'Send a member a notification (in the app and by SMS)', body: notificationBody, status: 201, answer: answers.sentNotification, refusals: ['404 MEMBER_NOT_FOUND'] },
      async (ctx, { body: input }) => {
        if (!(await deps.readModels.member(input.userId))) throw new ApiError(404, 'MEMBER_NOT_FOUND', 'Member not found');
        const { notificationId, position } = await notifyMember(deps, ctx, callerOf(ctx).id, { memberId: input.userId, title: input.title, message: input.message, type: input.type });
        ctx.status = 201;
        ctx.body = await readAfterWrite(ctx, deps.progress, position, async () => {
          const notifications = await deps.readModels.notificationsOfMember(input.userId, 20);
          const created = notifications.find((notification) => notification.id === notificationId);
          return created ?? { id: notificationId, memberId: input.userId, title: input.title, message: input.message, type: input.type };
        });
      },
    ),
  );

  return router;
}
