import Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import {
  APPROVAL_KINDS,
  approvalStatusSchema,
  hasWholeCentavos,
  maskName,
  maskPersonalFields,
  pesosToCentavos,
  streams,
  toApprovalAnswer,
  toApprovalSettingsAnswer,
  type ApprovalDoc,
  type ApprovalKind,
  type ApprovalSettings,
} from '@honeylend/contracts';
import { adminAccess, mainAdminOnly } from '../staff/access/adminAccess.js';
import { listQuery } from '../platform/lists/listQuery.js';
import { documentsOf } from '../platform/lists/searchPage.js';
import { idFromPath } from '../platform/http/pathId.js';
import { readAfterWrite } from '../platform/consistency/readAfterWrite.js';
import { handleCommand } from '../platform/commands/commandHandler.js';
import { ApiError } from '../platform/errors/apiError.js';
import { callerOf, metadataOf, type ApiDeps } from '../platform/context/context.js';
import { endpoint } from '../platform/http/endpoint.js';
import * as answers from '../platform/http/answerSchemas.js';
import { approvalSettingsDecider } from './approval.js';
import { personalDataView } from '../staff/personalData/personalDataView.js';
import { approvalSettings, grantApproval, rejectApproval, type ApprovedCommandRunners } from './fourEyes.js';

export const APPROVAL_ROUTE_MESSAGES = {
  reason: 'Give a reason (5 to 500 characters)',
  threshold: 'Enter a threshold in pesos from 0 to 100,000,000, with at most two decimals',
  required: `Say for each command (${APPROVAL_KINDS.join(', ')}) whether it needs a second admin: true or false`,
} as const;

export const approvalsQuery = listQuery(approvalStatusSchema, 'Status must be all, pending, approved, rejected or expired').extend({
  /** Only the requests naming this member (their servicing drawer shows what waits on their loans). */
  memberId: z.uuid({ error: 'memberId must be a member id' }).optional(),
});
export const rejectionBody = z.object({ reason: z.string({ error: APPROVAL_ROUTE_MESSAGES.reason }).trim().min(5, APPROVAL_ROUTE_MESSAGES.reason).max(500, APPROVAL_ROUTE_MESSAGES.reason) });
const threshold = z
  .number({ error: APPROVAL_ROUTE_MESSAGES.threshold })
  .min(0, APPROVAL_ROUTE_MESSAGES.threshold)
  .max(100_000_000, APPROVAL_ROUTE_MESSAGES.threshold)
  .refine(hasWholeCentavos, APPROVAL_ROUTE_MESSAGES.threshold)
  .transform(pesosToCentavos);
export const approvalSettingsBody = z
  .object({
    required: z.strictObject(Object.fromEntries(APPROVAL_KINDS.map((kind) => [kind, z.boolean({ error: APPROVAL_ROUTE_MESSAGES.required })])) as Record<ApprovalKind, z.ZodBoolean>, {
      error: APPROVAL_ROUTE_MESSAGES.required,
    }),
    withdrawalThreshold: threshold,
    loanApprovalThreshold: threshold,
  })
  .strict();

const approvalIdOf = (ctx: Context) => idFromPath(ctx, { code: 'APPROVAL_NOT_FOUND', message: 'Approval request not found' });

async function loadApproval(deps: ApiDeps, approvalId: string) {
  const raw = await deps.redis.get(deps.readModels.keys.approval(approvalId));
  if (!raw) throw new ApiError(404, 'APPROVAL_NOT_FOUND', 'Approval request not found');
  return toApprovalAnswer(JSON.parse(raw) as ApprovalDoc);
}

/**
 * Four eyes on money (design §11): the Approvals page's list, and a second admin's approval or
 * rejection. An auditor reads the list and changes nothing.
 */
export function approvalRoutes(deps: ApiDeps, runners: ApprovedCommandRunners): Router[] {
  const { redis, readModels } = deps;
  const keys = readModels.keys;
  const router = new Router({ prefix: '/api/admin/approvals' });
  router.use(adminAccess(deps));

  router.get(
    '/',
    endpoint({ summary: 'Requests waiting for (or decided by) a second admin, newest first', query: approvalsQuery, answer: answers.listOf(answers.approvalAnswer) }, async (ctx, { query }) => {
      const start = (query.page - 1) * query.pageSize;
      let total: number;
      let docs: ApprovalDoc[];
      if (query.memberId) {
        // A member's requests are few: read them all, newest first, and page here.
        const named = (await readModels.approvalsOfMember(query.memberId)).filter((doc) => !query.status || doc.status === query.status).reverse();
        total = named.length;
        docs = named.slice(start, start + query.pageSize);
      } else {
        const index = query.status ? keys.approvalsByStatus(query.status) : keys.approvals;
        const [count, ids] = await Promise.all([redis.zcard(index), redis.zrevrange(index, start, start + query.pageSize - 1)]);
        total = count;
        docs = await documentsOf<ApprovalDoc>(redis, ids, keys.approval);
      }
      // An auditor sees the member masked (issue 16), as in every other staff read, unless they unmasked them.
      const view = await personalDataView(ctx, deps);
      const shown = docs.map((doc) =>
        !view.masking || view.isUnmasked(doc.command.memberId)
          ? doc
          : { ...doc, memberName: doc.memberName === null ? null : maskName(doc.memberName), command: maskPersonalFields(doc.command) as ApprovalDoc['command'] },
      );
      ctx.body = { items: shown.map(toApprovalAnswer), total, page: query.page, pageSize: query.pageSize };
    }),
  );

  router.post(
    '/:id/approve',
    endpoint(
      {
        summary: "Approve another admin's request: it runs now, once (never the maker's own)",
        description: "Answers the request as decided, with `execution.outcome` 'done', or 'refused' with the command's own reason when its rules refused it at this moment (e.g. the balance no longer covers a debit).",
        answer: answers.approvalAnswer,
        refusals: ['403 OWN_APPROVAL_REQUEST', '409 APPROVAL_ALREADY_DECIDED', '409 APPROVAL_EXPIRED'],
      },
      async (ctx) => {
        const approvalId = approvalIdOf(ctx);
        const { position } = await grantApproval(deps, ctx, approvalId, runners);
        ctx.body = await readAfterWrite(ctx, deps.progress, position, () => loadApproval(deps, approvalId));
      },
    ),
  );

  router.post(
    '/:id/reject',
    endpoint(
      { summary: 'Reject a request with a reason: it never runs', body: rejectionBody, answer: answers.approvalAnswer, refusals: ['409 APPROVAL_ALREADY_DECIDED', '409 APPROVAL_EXPIRED'] },
      async (ctx, { body }) => {
        const approvalId = approvalIdOf(ctx);
        const position = await rejectApproval(deps, ctx, approvalId, body.reason);
        ctx.body = await readAfterWrite(ctx, deps.progress, position, () => loadApproval(deps, approvalId));
      },
    ),
  );

  const settings = new Router({ prefix: '/api/admin/settings/approvals' });
  settings.use(adminAccess(deps));
  settings.get(
    '/',
    endpoint({ summary: 'Which commands need a second admin, and the thresholds (pesos)', answer: answers.approvalSettingsAnswer }, async (ctx) => {
      ctx.body = toApprovalSettingsAnswer(await approvalSettings(deps));
    }),
  );
  settings.put(
    '/',
    mainAdminOnly('choose which commands need a second admin'),
    endpoint(
      { summary: 'Set which commands need a second admin, and the thresholds (main admin only)', body: approvalSettingsBody, answer: answers.approvalSettingsAnswer, refusals: ['403 MAIN_ADMIN_ONLY'] },
      async (ctx, { body }) => {
        const next: ApprovalSettings = {
          required: Object.fromEntries(APPROVAL_KINDS.map((kind) => [kind, body.required[kind]])) as Record<ApprovalKind, boolean>,
          withdrawalThresholdCentavos: body.withdrawalThreshold,
          loanApprovalThresholdCentavos: body.loanApprovalThreshold,
        };
        const result = await handleCommand(
          deps.store,
          streams.approvalSettings,
          approvalSettingsDecider,
          { type: 'SetApprovalSettings', settings: next, now: deps.now().toISOString() },
          metadataOf(ctx, callerOf(ctx).id),
        );
        await readAfterWrite(ctx, deps.progress, result.position, async () => undefined);
        ctx.body = toApprovalSettingsAnswer(result.state.settings);
      },
    ),
  );
  return [router, settings];
}
