import Router from '@koa/router';
import { z } from 'zod';
import { BUILT_IN_LOAN_STATUSES, loanStatusSchema, streams } from '@honeylend/contracts';
import { readAfterWrite } from '../../platform/consistency/readAfterWrite.js';
import { handleCommand } from '../../platform/commands/commandHandler.js';
import { callerOf, metadataOf, type ApiDeps } from '../../platform/context/context.js';
import { adminAccess } from '../../staff/access/adminAccess.js';
import { customLoanStatusesDecider, normaliseLoanStatus } from './customLoanStatuses.js';
import { refuseMoneyInStatusName } from './statusNameRules.js';
import { endpoint } from '../../platform/http/endpoint.js';
import { pathParam } from '../../platform/http/pathId.js';
import * as answers from '../../platform/http/answerSchemas.js';

const STATUS_MESSAGE = 'A status has 2 to 40 letters, digits or underscores and starts with a letter';

export const loanStatusBody = z.object({
  status: z
    .string({ error: 'Enter a status name' })
    .transform(normaliseLoanStatus)
    .refine((status) => status !== '', 'Enter a status name')
    .refine((status) => loanStatusSchema.safeParse(status).success, STATUS_MESSAGE)
    .superRefine((status, ctx) => void refuseMoneyInStatusName(ctx, status, [])),
});

/** Spec §4's admin-defined loan statuses, stored for every admin (not per session), lowercased and unique. */
export function loanStatusRoutes(deps: ApiDeps): Router {
  const router = new Router({ prefix: '/api/admin/loan-statuses' });
  router.use(adminAccess(deps));

  const answer = async () => {
    const raw = await deps.redis.get(deps.readModels.keys.customLoanStatuses);
    const custom = raw ? (JSON.parse(raw) as string[]) : [];
    return { statuses: [...BUILT_IN_LOAN_STATUSES, ...custom], builtIn: [...BUILT_IN_LOAN_STATUSES], custom };
  };

  router.get(
    '/',
    endpoint({ summary: 'Loan statuses: built in and defined by admins', answer: answers.loanStatusesAnswer }, async (ctx) => {
      ctx.body = await answer();
    }),
  );

  router.post(
    '/',
    endpoint({ summary: 'Define a loan status', body: loanStatusBody, status: 201, answer: answers.loanStatusesAnswer, refusals: ['409 LOAN_STATUS_EXISTS'] }, async (ctx, { body: { status } }) => {
      const result = await handleCommand(deps.store, streams.loanStatuses, customLoanStatusesDecider, { type: 'DefineLoanStatus', status, now: deps.now().toISOString() }, metadataOf(ctx, callerOf(ctx).id));
      ctx.status = 201;
      ctx.body = await readAfterWrite(ctx, deps.progress, result.position, answer);
    }),
  );

  router.delete(
    '/:status',
    endpoint({ summary: 'Remove a loan status an admin defined', answer: answers.loanStatusesAnswer, refusals: ['404 LOAN_STATUS_NOT_FOUND'] }, async (ctx) => {
      const status = normaliseLoanStatus(String(pathParam(ctx, 'status') ?? ''));
      const result = await handleCommand(deps.store, streams.loanStatuses, customLoanStatusesDecider, { type: 'RemoveLoanStatus', status, now: deps.now().toISOString() }, metadataOf(ctx, callerOf(ctx).id));
      ctx.body = await readAfterWrite(ctx, deps.progress, result.position, answer);
    }),
  );

  return router;
}
