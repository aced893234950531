import Router from '@koa/router';
import { profileUpdateBody, streams, toUserAnswer, type ProfileChanges } from '@honeylend/contracts';
import { authenticate } from '../auth/authenticate.js';
import { handleCommand } from '../domain/commandHandler.js';
import { ApiError } from '../http/apiError.js';
import { callerOf, metadataOf, type ApiDeps } from '../http/context.js';
import { parseBody } from '../http/parse.js';
import { readAfterWrite } from '../consistency/readAfterWrite.js';
import { memberDecider } from './decide.js';

export function profileRoutes(deps: ApiDeps): Router {
  const { store, readModels, progress, tokens } = deps;
  const router = new Router({ prefix: '/api/user' });
  router.use(authenticate(tokens, readModels, ['borrower']));

  const currentUser = async (memberId: string) => {
    const doc = await readModels.member(memberId);
    if (!doc) throw new ApiError(404, 'MEMBER_NOT_FOUND', 'Account not found');
    return toUserAnswer(doc);
  };

  router.get('/profile', async (ctx) => {
    ctx.body = await currentUser(callerOf(ctx).id);
  });

  router.put('/profile', async (ctx) => {
    const { monthlySalary, ...rest } = parseBody(ctx, profileUpdateBody);
    const changes: ProfileChanges = { ...rest, ...(monthlySalary !== undefined ? { monthlySalaryCentavos: monthlySalary } : {}) };
    const memberId = callerOf(ctx).id;
    const result = await handleCommand(
      store,
      streams.member(memberId),
      memberDecider,
      { type: 'UpdateProfile', memberId, changes, now: deps.now().toISOString() },
      metadataOf(ctx, memberId),
    );
    ctx.body = await readAfterWrite(ctx, progress, result.position, () => currentUser(memberId));
  });

  return router;
}
