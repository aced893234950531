import Router from '@koa/router';
import type { Context } from 'koa';
import { DELINQUENCY_BUCKETS, findRepayment, loanPosition, type ApprovalCommand, type CollectionsRowAnswer, type LoanDoc, type MemberDoc, type PortfolioAnswer } from '@honeylend/contracts';
import { adminAccess } from '../staff/access/adminAccess.js';
import { loadAdminLoan } from '../lending/staff/adminLoanAnswer.js';
import { documentsOf } from '../platform/lists/searchPage.js';
import { idFromPath } from '../platform/http/pathId.js';
import { readAfterWrite } from '../platform/consistency/readAfterWrite.js';
import { callerOf, metadataOf, type ApiDeps } from '../platform/context/context.js';
import { recordRepayment, reverseRepayment, waivePenalty } from './adminMoneyCommands.js';
import { adminRepaymentBody, collectionsQuery, penaltyWaiverBody, reversalBody } from './servicingBodies.js';
import { personalDataView } from '../staff/personalData/personalDataView.js';
import { endpoint } from '../platform/http/endpoint.js';
import { approvalSettings, requestApproval } from '../approvals/fourEyes.js';
import { DomainError } from '../platform/commands/decider.js';
import { APPROVAL_REQUIRED_CODE } from '../lending/decide.js';
import { loadLoan, type Position } from '../lending/loanAccountCommands.js';
import type { ExistingLoan } from '../lending/loan.js';
import * as answers from '../platform/http/answerSchemas.js';

const loanIdOf = (ctx: Context) => idFromPath(ctx, { code: 'LOAN_NOT_FOUND', message: 'Loan not found' });
const repaymentIdOf = (ctx: Context) => idFromPath(ctx, { code: 'REPAYMENT_NOT_FOUND', message: 'Repayment not found' }, 'repaymentId');

/** Record, reverse and waive on a loan: each route parses, then runs the plain command function with the admin as actor. */
export function adminLoanServicingRoutes(deps: ApiDeps): Router {
  const router = new Router({ prefix: '/api/admin/loans' });
  router.use(adminAccess(deps));

  router.post(
    '/:id/repayments',
    endpoint(
      {
        summary: 'Record a repayment received by cash, bank, GCash or Maya',
        body: adminRepaymentBody,
        status: 201,
        answer: answers.repaymentReceipt,
        refusals: ['400 AMOUNT_ABOVE_PAYOFF', '400 VALUE_DATE_BEFORE_DISBURSEMENT', '409 OVERPAYMENT_CONFLICT', '409 LOAN_NOT_ACTIVE', '409 REFERENCE_ALREADY_RECORDED'],
      },
      async (ctx, { body }) => {
        const loanId = loanIdOf(ctx);
        const { receipt, position } = await recordRepayment(deps, metadataOf(ctx, callerOf(ctx).id), loanId, body);
        await readAfterWrite(ctx, deps.progress, position, async () => undefined);
        ctx.status = 201;
        ctx.body = receipt;
      },
    ),
  );

  router.post(
    '/:id/repayments/:repaymentId/reversal',
    endpoint(
      {
        summary: 'Reverse a recorded repayment (a bounced payment), with a reason',
        body: reversalBody,
        answer: answers.orAwaitingApproval(answers.adminLoanAnswer),
        refusals: ['404 REPAYMENT_NOT_FOUND', '409 REPAYMENT_ALREADY_REVERSED', '409 APPROVAL_ALREADY_PENDING'],
      },
      async (ctx, { body }) => {
        const loanId = loanIdOf(ctx);
        const repaymentId = repaymentIdOf(ctx);
        const actor = metadataOf(ctx, callerOf(ctx).id);
        // Under four eyes the repayment counts until a second admin approves its reversal.
        const fourEyes = (await approvalSettings(deps)).required.repayment_reversal;
        const position = await underFourEyes(
          deps,
          ctx,
          loanId,
          body.reason,
          fourEyes,
          (asked) => reverseRepayment(deps, actor, loanId, repaymentId, body, asked),
          (loan) => {
            const repayment = loan.account && findRepayment(loan.account, repaymentId);
            return repayment ? { kind: 'repayment_reversal', memberId: loan.memberId, loanId, loanNumber: loan.loanNumber, repaymentId, amountCentavos: repayment.amountCentavos, reason: body.reason } : null;
          },
        );
        if (position === REQUESTED) return;
        ctx.body = await readAfterWrite(ctx, deps.progress, position, () => loadAdminLoan(deps, loanId));
      },
    ),
  );

  router.post(
    '/:id/penalty-waivers',
    endpoint(
      {
        summary: "Waive some of a loan's late charges, with a reason",
        body: penaltyWaiverBody,
        status: 201,
        answer: answers.orAwaitingApproval(answers.adminLoanAnswer),
        refusals: ['400 WAIVER_ABOVE_PENALTIES', '409 LOAN_NOT_ACTIVE'],
      },
      async (ctx, { body }) => {
        const loanId = loanIdOf(ctx);
        const actor = metadataOf(ctx, callerOf(ctx).id);
        // Under four eyes the late charges stay owed until a second admin approves (one above the unpaid charges is refused at once).
        const fourEyes = (await approvalSettings(deps)).required.penalty_waiver;
        const position = await underFourEyes(
          deps,
          ctx,
          loanId,
          body.reason,
          fourEyes,
          (asked) => waivePenalty(deps, actor, loanId, body, undefined, asked),
          (loan) => ({ kind: 'penalty_waiver', memberId: loan.memberId, loanId, loanNumber: loan.loanNumber, amountCentavos: body.amount, reason: body.reason }),
        );
        if (position === REQUESTED) return;
        ctx.status = 201;
        ctx.body = await readAfterWrite(ctx, deps.progress, position, () => loadAdminLoan(deps, loanId));
      },
    ),
  );

  return router;
}

const REQUESTED = Symbol('requested for a second admin');

/**
 * Four eyes (design §11) on a servicing command, judged by the loan's decider on its stream: when the
 * settings ask for a second admin, the command runs as `required`, is refused alone (APPROVAL_REQUIRED)
 * whenever it would change anything, and is then recorded as a request built from the loan as its
 * stream has it (answered 202); nothing of it happens until then.
 */
async function underFourEyes(
  deps: ApiDeps,
  ctx: Context,
  loanId: string,
  reason: string,
  fourEyes: boolean,
  run: (fourEyes: 'required' | undefined) => Promise<Position>,
  requestOf: (loan: ExistingLoan) => ApprovalCommand | null,
): Promise<Position | typeof REQUESTED> {
  try {
    return await run(fourEyes ? 'required' : undefined);
  } catch (error) {
    if (!(error instanceof DomainError && error.code === APPROVAL_REQUIRED_CODE)) throw error;
    const command = requestOf(await loadLoan(deps, loanId));
    if (!command) throw error;
    await requestApproval(deps, ctx, command, reason);
    return REQUESTED;
  }
}

const PAGE_SIZE = 20;

/** The book (GET /api/admin/portfolio) and the collections work list (GET /api/admin/collections). */
export function adminPortfolioRoutes(deps: ApiDeps): Router {
  const { redis, readModels } = deps;
  const keys = readModels.keys;
  const router = new Router({ prefix: '/api/admin' });
  router.use(adminAccess(deps));

  /**
   * Outstanding principal of active loans, amounts and counts per delinquency bucket, PAR30 (the
   * share of outstanding principal in loans 30 or more days past due, as portfolio-at-risk is
   * reported) and the money repaid this business month.
   */
  router.get(
    '/portfolio',
    endpoint({ summary: 'The book: outstanding principal, delinquency buckets, PAR30, repaid this month', answer: answers.portfolio }, async (ctx) => {
      const [stats, today] = await Promise.all([redis.hgetall(keys.portfolio), deps.businessClock.today()]);
      const number = (field: string) => Number(stats[field] ?? 0);
      const buckets = DELINQUENCY_BUCKETS.map((bucket) => ({ bucket, loans: number(`count:${bucket}`), outstandingPrincipal: number(`principal:${bucket}`) / 100 }));
      const outstanding = DELINQUENCY_BUCKETS.reduce((sum, bucket) => sum + number(`principal:${bucket}`), 0);
      // Days past due 30 and more: all of 31-60, 61-90 and 90+, and the loans of 1-30 at exactly 30 days.
      const at30 = await redis.zrangebyscore(keys.loansOverdueByBucket('1-30'), 30, 30);
      const exactly30 = (await documentsOf<LoanDoc>(redis, at30, keys.loan)).reduce((sum, doc) => sum + (doc.account ? loanPosition(doc.account).outstanding.principalCentavos : 0), 0);
      const atRisk = number('principal:31-60') + number('principal:61-90') + number('principal:90+') + exactly30;
      const month = today.slice(0, 7);
      const answer: PortfolioAnswer = {
        asOf: today,
        outstandingPrincipal: outstanding / 100,
        activeLoans: buckets.reduce((sum, bucket) => sum + bucket.loans, 0),
        buckets,
        par30: outstanding === 0 ? 0 : Math.round((atRisk / outstanding) * 10_000) / 10_000,
        portfolioAtRisk30: atRisk / 100,
        month,
        repaidThisMonth: number(`repaid:${month}`) / 100,
      };
      ctx.body = answer;
    }),
  );

  /** Overdue active loans, most overdue first (one bucket or all), with the borrower's phone and the last reminder sent. */
  router.get(
    '/collections',
    endpoint({ summary: 'Overdue active loans, most overdue first', query: collectionsQuery, answer: answers.collections }, async (ctx, { query }) => {
      const index = query.bucket ? keys.loansOverdueByBucket(query.bucket) : keys.loansOverdue;
      const start = (query.page - 1) * PAGE_SIZE;
      const [total, ids] = await Promise.all([redis.zcard(index), redis.zrevrange(index, start, start + PAGE_SIZE - 1)]);
      const loans = await documentsOf<LoanDoc>(redis, ids, keys.loan);
      // An auditor sees the borrower masked (issue 16), as in every other staff read.
      const view = await personalDataView(ctx, deps);
      const members = new Map((await documentsOf<MemberDoc>(redis, [...new Set(loans.map((loan) => loan.memberId))], keys.member)).map((member) => [member.id, view.member(member)]));
      ctx.body = {
        items: loans.map((loan): CollectionsRowAnswer => {
          const position = loanPosition(loan.account!);
          const member = members.get(loan.memberId);
          const overdue = position.instalments.filter((line) => line.status === 'overdue');
          return {
            id: loan.id,
            loanNumber: loan.loanNumber,
            memberId: loan.memberId,
            borrower: member ? { fullName: member.fullName, phone: member.phone } : null,
            daysPastDue: position.daysPastDue,
            delinquencyBucket: position.bucket,
            overdueAmount: overdue.reduce((sum, line) => sum + line.unpaidPrincipalCentavos + line.unpaidInterestCentavos + line.unpaidPenaltyCentavos, 0) / 100,
            overdueInstalments: overdue.length,
            outstanding: position.outstanding.totalCentavos / 100,
            lastContact: loan.lastReminderAt ? { at: loan.lastReminderAt, channel: 'sms' } : null,
            version: loan.version,
          };
        }),
        total,
        page: query.page,
        pageSize: PAGE_SIZE,
      };
    }),
  );

  return router;
}
