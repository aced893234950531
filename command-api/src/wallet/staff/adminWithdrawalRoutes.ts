import Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import { toAdminWithdrawalAnswer, type MemberDoc, type WithdrawalDoc } from '@honeylend/contracts';
import { readAfterWrite } from '../../platform/consistency/readAfterWrite.js';
import { ApiError } from '../../platform/errors/apiError.js';
import { callerOf, type ApiDeps } from '../../platform/context/context.js';
import { adminAccess } from '../../staff/access/adminAccess.js';
import { listQuery } from '../../platform/lists/listQuery.js';
import { documentsOf, searchPage, type SearchIndex } from '../../platform/lists/searchPage.js';
import { withdrawalsCsv, withdrawalsCsvFileName } from './withdrawalCsv.js';
import { refineMoneyRequests } from '../../platform/text/refuseMoneyRequests.js';
import { idFromPath } from '../../platform/http/pathId.js';
import { personalDataView, type PersonalDataView } from '../../staff/personalData/personalDataView.js';
import { recordExport } from '../../staff/personalData/auditAccessLog.js';
import { endpoint } from '../../platform/http/endpoint.js';
import { requestApprovalIfNeeded } from '../../approvals/fourEyes.js';
import { decideWithdrawal } from '../decideWithdrawal.js';
import * as answers from '../../platform/http/answerSchemas.js';

const WITHDRAWAL_STATUSES = ['pending', 'completed', 'rejected'] as const;
export const withdrawalsQuery = listQuery(z.enum(WITHDRAWAL_STATUSES), 'Status must be all, pending, completed or rejected');
/** The export holds at most this many rows; the filters narrow anything larger. */
const EXPORT_LIMIT = 10_000;
/** A processing time the admin gives may run this far ahead of the server's clock (clock skew), no further. */
const CLOCK_SKEW_MS = 5 * 60_000;

export const decisionBody = z
  .object({
    // 'approved' and 'pending' are statuses a withdrawal can have but not be set to here: 409, not 400.
    status: z.enum(['pending', 'approved', 'completed', 'rejected'], { error: 'Status must be completed or rejected' }),
    processedAt: z.iso.datetime({ offset: true, error: 'processedAt must be a date and time, e.g. 2026-11-22T08:00:00Z' }).optional(),
    reason: z.string().trim().max(500, 'Keep the reason under 500 characters').optional(),
    /** The transfer's reference (GCash, InstaPay, bank), recorded on completion and told to the member. */
    payoutReference: z
      .string()
      .trim()
      .max(64, 'Keep the payout reference under 64 characters')
      .regex(/^[\w\- /.#]*$/, 'A payout reference has letters, digits, spaces and - / . # only')
      .optional(),
  })
  // A rejection's reason and a completion's payout reference reach the borrower (in the app and by SMS): neither may ask them for money.
  .superRefine((body, ctx) => {
    if (body.status === 'rejected') refineMoneyRequests(ctx, { reason: body.reason }, 'A rejection reason');
    if (body.status === 'completed') refineMoneyRequests(ctx, { payoutReference: body.payoutReference }, 'A payout reference');
  });

const withdrawalIdOf = (ctx: Context) => idFromPath(ctx, { code: 'WITHDRAWAL_NOT_FOUND', message: 'Withdrawal not found' });

/** Withdrawals (spec §2): the list with its filters, the CSV report, and the one decision each withdrawal gets. */
export function adminWithdrawalRoutes(deps: ApiDeps): Router {
  const { readModels, redis, progress } = deps;
  const keys = readModels.keys;
  const router = new Router({ prefix: '/api/admin/withdrawals' });
  router.use(adminAccess(deps));

  const indexFor = (status: string | null): SearchIndex => ({
    ids: status ? keys.withdrawalsByStatus(status) : keys.withdrawals,
    text: keys.withdrawalSearch,
    maskedText: keys.withdrawalMaskedSearch,
    memberText: keys.memberSearch,
    maskedMemberText: keys.memberMaskedSearch,
  });

  /** Each withdrawal with its member, as `view` lets the caller see them (masked for an auditor). */
  const withMembers = async (withdrawals: WithdrawalDoc[], view?: PersonalDataView) => {
    const members = await documentsOf<MemberDoc>(redis, [...new Set(withdrawals.map((w) => w.memberId))], keys.member);
    const byId = new Map(members.map((member) => [member.id, view ? view.member(member) : member]));
    return withdrawals.map((withdrawal) => ({ withdrawal: view ? view.withdrawal(withdrawal) : withdrawal, member: byId.get(withdrawal.memberId) ?? null }));
  };

  const loadWithdrawal = async (withdrawalId: string, view?: PersonalDataView) => {
    const doc = await readModels.withdrawal(withdrawalId);
    if (!doc) throw new ApiError(404, 'WITHDRAWAL_NOT_FOUND', 'Withdrawal not found');
    const [row] = await withMembers([doc], view);
    return toAdminWithdrawalAnswer(row.withdrawal, row.member);
  };

  router.get(
    '/',
    endpoint({ summary: 'Withdrawals: search and list, a page at a time', query: withdrawalsQuery, answer: answers.listOf(answers.adminWithdrawalAnswer) }, async (ctx, { query }) => {
      const view = await personalDataView(ctx, deps);
      const { total, ids } = await searchPage(redis, indexFor(query.status), query.search, (query.page - 1) * query.pageSize, query.pageSize, view.search);
      const rows = await withMembers(await documentsOf<WithdrawalDoc>(redis, ids, keys.withdrawal), view);
      ctx.body = { items: rows.map(({ withdrawal, member }) => toAdminWithdrawalAnswer(withdrawal, member)), total, page: query.page, pageSize: query.pageSize };
    }),
  );

  /** The spec's 'Export Report': the list as filtered (status, search), every page of it, as CSV. */
  router.get(
    '/export',
    endpoint({ summary: 'The withdrawals as filtered, every page, as CSV', query: withdrawalsQuery, answer: { file: ['text/csv'] } }, async (ctx, { query }) => {
      const view = await personalDataView(ctx, deps);
      const { ids } = await searchPage(redis, indexFor(query.status), query.search, 0, EXPORT_LIMIT, view.search);
      // What an auditor exports is on the log (issue 16), this report too: as of the position the read models reached.
      if (callerOf(ctx).role === 'auditor') {
        const filters = Object.fromEntries(Object.entries({ report: 'withdrawals', status: query.status ?? '', search: query.search }).filter(([, value]) => value !== ''));
        await recordExport(ctx, deps, { range: { from: 1, to: progress.checkpoint }, filters, format: 'csv', masked: view.masking });
      }
      const rows = await withMembers(await documentsOf<WithdrawalDoc>(redis, ids, keys.withdrawal), view);
      ctx.set('Content-Disposition', `attachment; filename="${withdrawalsCsvFileName(deps.now())}"`);
      ctx.type = 'text/csv; charset=utf-8';
      ctx.body = withdrawalsCsv(rows);
    }),
  );

  router.get(
    '/:id',
    endpoint({ summary: 'One withdrawal', answer: answers.adminWithdrawalAnswer }, async (ctx) => {
      ctx.body = await loadWithdrawal(withdrawalIdOf(ctx), await personalDataView(ctx, deps));
    }),
  );

  /**
   * Completed (paid out; processedAt defaults to now) or rejected (the held amount returns to the
   * wallet). The decision is made on the member's stream, where the money lives, so a second
   * decision — or two admins deciding at once — is refused with 409. The member is told either way.
   */
  router.put(
    '/:id',
    endpoint(
      {
        summary: 'Decide a withdrawal: completed (paid out) or rejected (the amount returns to the wallet)',
        body: decisionBody,
        answer: answers.orAwaitingApproval(answers.adminWithdrawalAnswer),
        refusals: ['409 ILLEGAL_WITHDRAWAL_DECISION', '409 WITHDRAWAL_ALREADY_DECIDED', '409 APPROVAL_ALREADY_PENDING'],
      },
      async (ctx, { body: input }) => {
        const withdrawalId = withdrawalIdOf(ctx);
        const doc = await readModels.withdrawal(withdrawalId);
        if (!doc) throw new ApiError(404, 'WITHDRAWAL_NOT_FOUND', 'Withdrawal not found');
        if (input.status !== 'completed' && input.status !== 'rejected') {
          throw new ApiError(409, 'ILLEGAL_WITHDRAWAL_DECISION', `A withdrawal can only be completed or rejected; this one is ${doc.status}.`, undefined, {
            currentStatus: doc.status,
          });
        }
        // The business clock, on which the request was dated: a payout is dated between the request and today's business time.
        const now = await deps.businessClock.businessNow();
        let processedAt = now.toISOString();
        if (input.processedAt !== undefined) {
          const at = new Date(input.processedAt);
          if (at.getTime() > now.getTime() + CLOCK_SKEW_MS || at.getTime() < Date.parse(doc.createdAt)) {
            const message = 'processedAt must be between the request and now';
            throw new ApiError(400, 'VALIDATION_FAILED', message, { fields: { processedAt: message } });
          }
          processedAt = at.toISOString();
        }
        const adminId = callerOf(ctx).id;
        // Four eyes (design §11): a completion from the threshold up waits for a second admin; the withdrawal stays pending, its money held.
        if (input.status === 'completed' && doc.status === 'pending') {
          const command = {
            kind: 'withdrawal_completion' as const,
            memberId: doc.memberId,
            withdrawalId,
            withdrawalNumber: doc.withdrawalNumber,
            amountCentavos: doc.amountCentavos,
            processedAt: input.processedAt !== undefined ? processedAt : null,
            payoutReference: input.payoutReference || null,
          };
          if (await requestApprovalIfNeeded(deps, ctx, command, input.reason ?? '')) return;
        }
        const position = await decideWithdrawal(deps, ctx, adminId, doc, { status: input.status, processedAt, reason: input.reason, payoutReference: input.payoutReference });
        ctx.body = await readAfterWrite(ctx, progress, position, () => loadWithdrawal(withdrawalId));
      },
    ),
  );

  return router;
}
