import Router from '@koa/router';
import { z } from 'zod';
import { toNotificationAnswer } from '@honeylend/contracts';
import { authenticate } from '../auth/authenticate.js';
import { callerOf, type ApiDeps } from '../http/context.js';
import { endpoint } from '../http/endpoint.js';
import * as answers from '../http/answerSchemas.js';

export function notificationRoutes(deps: ApiDeps): Router {
  const router = new Router({ prefix: '/api/notifications' });
  router.use(authenticate(deps.tokens, deps.readModels, ['borrower']));
  /** The member's notifications, newest first. */
  router.get('/', endpoint({ summary: "The borrower's notifications, newest first", answer: z.array(answers.notificationAnswer) }, async (ctx) => {
    ctx.body = (await deps.readModels.notificationsOfMember(callerOf(ctx).id)).map(toNotificationAnswer);
  }));
  return router;
}
