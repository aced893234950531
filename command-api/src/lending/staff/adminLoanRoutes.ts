import Router from '@koa/router';
import type { Context } from 'koa';
import { isUnderReview, loanStatusSchema, needsApproval, streams, type ApprovalSettings, type LoanDoc } from '@honeylend/contracts';
import { readAfterWrite } from '../../platform/consistency/readAfterWrite.js';
import { ApiError } from '../../platform/errors/apiError.js';
import { callerOf, type ApiDeps } from '../../platform/context/context.js';
import { adminAccess } from '../../staff/access/adminAccess.js';
import { listQuery } from '../../platform/lists/listQuery.js';
import { documentsOf, searchPage, type ListAnswer } from '../../platform/lists/searchPage.js';
import { adminLoanUpdateBody } from './adminLoanBodies.js';
import { adminLoanAnswers, loadAdminLoan } from './adminLoanAnswer.js';
import { changeLoanStatus, changeLoanTerms, deleteLoan } from '../loanCommands.js';
import { idFromPath } from '../../platform/http/pathId.js';
import { personalDataView } from '../../staff/personalData/personalDataView.js';
import { endpoint } from '../../platform/http/endpoint.js';
import { approvalSettings, pendingApprovalLike, requestApproval } from '../../approvals/fourEyes.js';
import { loadState } from '../../platform/commands/commandHandler.js';
import { DomainError } from '../../platform/commands/decider.js';
import { APPROVAL_REQUIRED_CODE, loanDecider } from '../decide.js';
import * as answers from '../../platform/http/answerSchemas.js';

export const loansQuery = listQuery(loanStatusSchema, 'Choose a loan status, or all');

const loanIdOf = (ctx: Context) => idFromPath(ctx, { code: 'LOAN_NOT_FOUND', message: 'Loan not found' });

/** The borrowing list (spec §2): search, the status machine with its notifications, terms while pending, deletion. */
export function adminLoanRoutes(deps: ApiDeps): Router {
  const { readModels, redis, progress } = deps;
  const keys = readModels.keys;
  const router = new Router({ prefix: '/api/admin/loans' });
  router.use(adminAccess(deps));

  /** Search covers the member's name, email and phone (any format; as masked for a viewer who sees them masked), the loan number and the status. */
  router.get(
    '/',
    endpoint({ summary: 'Loans: search and list, a page at a time', query: loansQuery, answer: answers.listOf(answers.adminLoanRow) }, async (ctx, { query }) => {
      const view = await personalDataView(ctx, deps);
      const { total, ids } = await searchPage(
        redis,
        // A loan's own text (member id, number, status) holds nothing personal: it is its own masked text.
        { ids: query.status ? keys.loansByStatus(query.status) : keys.loans, text: keys.loanSearch, maskedText: keys.loanSearch, memberText: keys.memberSearch, maskedMemberText: keys.memberMaskedSearch },
        query.search,
        (query.page - 1) * query.pageSize,
        query.pageSize,
        view.search,
      );
      const loans = await documentsOf<LoanDoc>(redis, ids, keys.loan);
      const answer: ListAnswer<unknown> = { items: await adminLoanAnswers(deps, loans, view), total, page: query.page, pageSize: query.pageSize };
      ctx.body = answer;
    }),
  );

  router.get(
    '/:id',
    endpoint({ summary: 'One loan with its schedule', answer: answers.adminLoanAnswer }, async (ctx) => {
      ctx.body = await loadAdminLoan(deps, loanIdOf(ctx), await personalDataView(ctx, deps));
    }),
  );

  /**
   * The amount and term (only while pending, admin limits of spec §5) and then the status, so a
   * whole-row edit that sends both applies both; a value equal to the current one changes nothing.
   */
  router.put(
    '/:id',
    endpoint(
      {
        summary: 'Change a loan: amount and term while pending, then the status (approval disburses)',
        body: adminLoanUpdateBody,
        answer: answers.orAwaitingApproval(answers.adminLoanAnswer),
        refusals: ['409 ILLEGAL_STATUS_CHANGE', '409 LOAN_NOT_PENDING', '409 APPROVAL_PENDING', '409 APPROVAL_ALREADY_PENDING'],
      },
      async (ctx, { body: update }) => {
        const loanId = loanIdOf(ctx);
        const { status, message, notify, ...terms } = update;
        const statusUpdate = { status, message, notify };
        const before = await readModels.loan(loanId);
        if (!before) throw new ApiError(404, 'LOAN_NOT_FOUND', 'Loan not found');
        const adminId = callerOf(ctx).id;
        let position: number | null = null;
        if (terms.amountCentavos !== undefined || terms.termMonths !== undefined) {
          // Terms do not move under a second admin's eyes (design §11). Should an edit slip in before the
          // request reaches the read model, the grant is still bound to the terms it saw (APPROVAL_TERMS_CHANGED).
          const waiting = await pendingApprovalLike(deps, { kind: 'loan_approval', memberId: before.memberId, loanId, loanNumber: before.loanNumber, amountCentavos: 0, message: null, notify: null });
          if (waiting) {
            throw new ApiError(409, 'APPROVAL_PENDING', "This loan's approval is waiting for a second admin; its amount and term cannot change until that request is decided or expires.", {
              approvalId: waiting.id,
            });
          }
          position = await changeLoanTerms(deps, ctx, adminId, loanId, terms);
        }
        // Four eyes (design §11): approving a loan from the threshold up waits for a second admin. It
        // is judged on the loan's stream — the terms the decider will approve — never on the read
        // model, which may not show an edit made a moment ago; the request records those terms.
        // Any loan still under review (pending, account_issue, a custom step) may be approved: each such approval is gated.
        if (statusUpdate.status === 'approved' && isUnderReview(before.status)) {
          const settings = await approvalSettings(deps);
          if (settings.required.loan_approval) {
            if (await requestLoanApprovalIfNeeded(deps, ctx, settings, loanId, statusUpdate)) return;
            try {
              position = (await changeLoanStatus(deps, ctx, adminId, loanId, { ...statusUpdate, status: 'approved' }, { thresholdCentavos: settings.loanApprovalThresholdCentavos })) ?? position;
            } catch (error) {
              // The terms reached the threshold between the look above and the decision (a concurrent edit): ask for a second admin after all.
              if (!(error instanceof DomainError && error.code === APPROVAL_REQUIRED_CODE)) throw error;
              if (await requestLoanApprovalIfNeeded(deps, ctx, settings, loanId, statusUpdate)) return;
              throw error;
            }
            ctx.body = await readAfterWrite(ctx, progress, position, () => loadAdminLoan(deps, loanId));
            return;
          }
        }
        if (statusUpdate.status !== undefined) position = (await changeLoanStatus(deps, ctx, adminId, loanId, { ...statusUpdate, status: statusUpdate.status })) ?? position;
        ctx.body = await readAfterWrite(ctx, progress, position, () => loadAdminLoan(deps, loanId));
      },
    ),
  );

  router.delete(
    '/:id',
    endpoint({ summary: 'Delete a loan', answer: answers.deleted, refusals: ['404 LOAN_NOT_FOUND'] }, async (ctx) => {
      const loanId = loanIdOf(ctx);
      const position = await deleteLoan(deps, ctx, callerOf(ctx).id, loanId);
      await readAfterWrite(ctx, progress, position, async () => undefined);
      ctx.body = { success: true, id: loanId };
    }),
  );

  return router;
}

/**
 * Requests a second admin's approval of the loan as its stream has it now (amount, term, rate),
 * when `settings` (as the route read them) say those terms need one; false when they do not.
 */
async function requestLoanApprovalIfNeeded(
  deps: ApiDeps,
  ctx: Context,
  settings: ApprovalSettings,
  loanId: string,
  statusUpdate: { message?: string; notify?: boolean | { title?: string; message?: string } },
): Promise<boolean> {
  const { state } = await loadState(deps.store, streams.loan(loanId), loanDecider);
  if (!state.exists) throw new ApiError(404, 'LOAN_NOT_FOUND', 'Loan not found');
  const command = {
    kind: 'loan_approval' as const,
    memberId: state.memberId,
    loanId,
    loanNumber: state.loanNumber,
    amountCentavos: state.amountCentavos,
    termMonths: state.termMonths,
    monthlyRateBps: state.monthlyRateBps,
    message: statusUpdate.message ?? null,
    notify: statusUpdate.notify ?? null,
  };
  if (!needsApproval(settings, command)) return false;
  await requestApproval(deps, ctx, command, statusUpdate.message ?? '');
  return true;
}
