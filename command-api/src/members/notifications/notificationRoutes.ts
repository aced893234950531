import Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import { streams, toNotificationAnswer, type NotificationDoc } from '@honeylend/contracts';
import { authenticate } from '../../platform/sessions/authenticate.js';
import { handleCommand } from '../../platform/commands/commandHandler.js';
import { readAfterWrite } from '../../platform/consistency/readAfterWrite.js';
import { ApiError } from '../../platform/errors/apiError.js';
import { callerOf, metadataOf, type ApiDeps } from '../../platform/context/context.js';
import { endpoint } from '../../platform/http/endpoint.js';
import * as answers from '../../platform/http/answerSchemas.js';
import { idFromPath } from '../../platform/http/pathId.js';
import { inboxDecider } from './notificationInbox.js';

/** How far back reading looks: a member's whole inbox in practice (the list itself answers the newest 100). */
const INBOX_LIMIT = 10_000;
const NOT_FOUND = { code: 'NOTIFICATION_NOT_FOUND', message: 'Notification not found' };

export function notificationRoutes(deps: ApiDeps): Router {
  const { store, readModels, progress } = deps;
  const router = new Router({ prefix: '/api/notifications' });
  router.use(authenticate(deps.tokens, readModels, ['borrower']));
  /** The member's notifications, newest first. */
  router.get(
    '/',
    endpoint({ summary: "The borrower's notifications, newest first", answer: z.array(answers.notificationAnswer) }, async (ctx) => {
      ctx.body = (await readModels.notificationsOfMember(callerOf(ctx).id)).map(toNotificationAnswer);
    }),
  );

  /** Marks the member's notifications read (an event on notifications-<member id>); every open device hears `notification.updated`. */
  const markRead = async (ctx: Context, memberId: string, notificationIds: string[]) => {
    const result = await handleCommand(store, streams.notifications(memberId), inboxDecider, { type: 'MarkNotificationsRead', memberId, notificationIds, now: deps.now().toISOString() }, metadataOf(ctx, memberId));
    return result.position;
  };

  router.post(
    '/read-all',
    endpoint({ summary: "Mark every one of the borrower's notifications read (again: nothing changes)", answer: answers.notificationsReadAnswer }, async (ctx) => {
      const memberId = callerOf(ctx).id;
      const unread = (await readModels.notificationsOfMember(memberId, INBOX_LIMIT)).filter((doc) => !doc.read).map((doc) => doc.id);
      const position = unread.length > 0 ? await markRead(ctx, memberId, unread) : null;
      ctx.body = await readAfterWrite(ctx, progress, position, async () => ({
        read: unread.length,
        unread: (await readModels.notificationsOfMember(memberId, INBOX_LIMIT)).filter((doc) => !doc.read).length,
      }));
    }),
  );

  router.post(
    '/:id/read',
    endpoint({ summary: 'Mark one of the borrower’s notifications read (again: nothing changes)', answer: answers.notificationAnswer, refusals: ['404 NOTIFICATION_NOT_FOUND'] }, async (ctx) => {
      const memberId = callerOf(ctx).id;
      const notificationId = idFromPath(ctx, NOT_FOUND);
      const find = async (): Promise<NotificationDoc | undefined> => (await readModels.notificationsOfMember(memberId, INBOX_LIMIT)).find((doc) => doc.id === notificationId);
      // Only the member's own: another member's notification is not found for them.
      const held = await find();
      if (!held) throw new ApiError(404, NOT_FOUND.code, NOT_FOUND.message);
      const position = held.read ? null : await markRead(ctx, memberId, [notificationId]);
      const doc = await readAfterWrite(ctx, progress, position, find);
      ctx.body = toNotificationAnswer(doc ?? { ...held, read: true });
    }),
  );
  return router;
}
