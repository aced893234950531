import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import Router from '@koa/router';
import { businessDateOf, loanApplicationBody, streams, toLoanAnswer } from '@honeylend/contracts';
import { idFromPath } from '../platform/http/pathId.js';
import { authenticate, authenticatedRead } from '../platform/sessions/authenticate.js';
import { handleCommand, loadState } from '../platform/commands/commandHandler.js';
import { ApiError } from '../platform/errors/apiError.js';
import { callerOf, metadataOf, type ApiDeps } from '../platform/context/context.js';
import { readAfterWrite } from '../platform/consistency/readAfterWrite.js';
import { memberDecider } from '../members/decide.js';
import { memberOnWriteSide } from '../members/memberOnWriteSide.js';
import { noticeVersionOf } from '../members/privacy/privacyRoutes.js';
import { allocateNumber } from '../platform/sequence/allocateNumber.js';
import { loanAnswerJson } from './loanAnswers.js';
import { loanDecider } from './decide.js';
import { endpoint } from '../platform/http/endpoint.js';
import * as answers from '../platform/http/answerSchemas.js';

export function loanRoutes(deps: ApiDeps, { monthlyRateBps }: { monthlyRateBps: number }): Router {
  const { store, readModels, progress, tokens } = deps;
  const router = new Router({ prefix: '/api/loans' });
  const borrowerRead = authenticatedRead(tokens, readModels, ['borrower']);
  // Applying and cancelling check the token against the member's stream too: a revoked one must not act while the read models lag.

  /**
   * A loan application touches three streams: the member's (one loan at a time, verified only),
   * the loan-number sequence, and the new loan's. Should a writer die part-way, the member's
   * stream already names the loan; applying again resumes that same loan instead of refusing.
   */
  router.post(
    '/',
    authenticate(tokens, readModels, ['borrower']),
    memberOnWriteSide(store),
    endpoint(
      { summary: 'Apply for a loan (one open application at a time, verified borrowers only)', body: loanApplicationBody, status: 201, answer: answers.loanAnswer, refusals: ['409 LOAN_EXISTS', '403 CONSENT_REQUIRED'] },
      async (ctx, { body: input }) => {
        const memberId = callerOf(ctx).id;
        const metadata = metadataOf(ctx, memberId);
        // The business calendar's instant: the calendar's own in production, moved with the dev business date elsewhere.
        const now = await deps.businessClock.businessNow();
        const { state: member } = await loadState(store, streams.member(memberId), memberDecider);
        if (!member.exists) throw new ApiError(404, 'MEMBER_NOT_FOUND', 'Account not found');
        const unfinished = member.loanIds.at(-1);
        const loanId = unfinished && (await store.readStream(streams.loan(unfinished))).length === 0 ? unfinished : randomUUID();

        await handleCommand(store, streams.member(memberId), memberDecider, { type: 'OpenLoanApplication', memberId, loanId, privacyNoticeVersion: noticeVersionOf(deps), now: now.toISOString() }, metadata);
        const loanNumber = await allocateNumber(store, 'LN', loanId, now, metadata);
        const result = await handleCommand(
          store,
          streams.loan(loanId),
          loanDecider,
          { type: 'ApplyForLoan', loanId, memberId, loanNumber, amountCentavos: input.amountCentavos, termMonths: input.termMonths, monthlyRateBps, purpose: input.purpose, now: now.toISOString() },
          metadata,
          // Just made, or resumed after being seen empty above.
          { newStream: true },
        );
        ctx.status = 201;
        const doc = await readAfterWrite(ctx, progress, result.position, () => readModels.loan(loanId));
        ctx.body = doc ? toLoanAnswer(doc, businessDateOf(now.toISOString())) : { id: loanId, loanNumber, status: 'pending' };
      },
    ),
  );

  /** The terms new applications get, for the borrower's estimate: the configured rate, never a constant of the web app. */
  router.get(
    '/terms',
    endpoint({ summary: 'The interest rate new loans are offered at (configured on the server)', public: true, answer: answers.loanTermsAnswer }, (ctx) => {
      ctx.body = { monthlyRateBps, monthlyRatePercent: monthlyRateBps / 100 };
    }),
  );

  /**
   * The borrower withdraws their own application while it is still under review: the loan's
   * stream records it (LoanApplicationCancelled), then the member's stream closes the application
   * so they may apply again. Again on a cancelled one: the same answer, nothing more recorded (a
   * retry also finishes a closing a dropped writer left undone).
   */
  router.post(
    '/:id/cancellation',
    authenticate(tokens, readModels, ['borrower']),
    memberOnWriteSide(store),
    endpoint(
      { summary: 'Cancel the borrower’s own application while it is under review (pending, account issue, a review step)', answer: answers.loanAnswer, refusals: ['404 LOAN_NOT_FOUND', '409 LOAN_NOT_CANCELLABLE'] },
      async (ctx) => {
        const memberId = callerOf(ctx).id;
        const loanId = idFromPath(ctx, { code: 'LOAN_NOT_FOUND', message: 'Loan not found' });
        const metadata = metadataOf(ctx, memberId);
        // The business calendar's instant, as the application's own (moved with the dev business date outside production).
        const now = (await deps.businessClock.businessNow()).toISOString();
        const cancelled = await handleCommand(store, streams.loan(loanId), loanDecider, { type: 'CancelApplication', loanId, memberId, now }, metadata);
        const closed = await handleCommand(store, streams.member(memberId), memberDecider, { type: 'CloseLoanApplication', memberId, loanId, closing: 'cancelled', now }, metadata);
        const position = Math.max(cancelled.position ?? 0, closed.position ?? 0) || null;
        const doc = await readAfterWrite(ctx, progress, position, () => readModels.loan(loanId));
        if (!doc) throw new ApiError(404, 'LOAN_NOT_FOUND', 'Loan not found');
        ctx.body = toLoanAnswer(doc, businessDateOf(now));
      },
    ),
  );

  router.get(
    '/user',
    endpoint({ summary: "The borrower's loans", answer: z.array(answers.loanAnswer) }, async (ctx) => {
      const [loans, today] = await Promise.all([borrowerRead(ctx, (memberId) => readModels.loansOfMember(memberId)), deps.businessClock.today()]);
      ctx.type = 'application/json; charset=utf-8';
      ctx.body = `[${loans.map((loan) => loanAnswerJson(loan, today)).join(',')}]`;
    }),
  );

  return router;
}
