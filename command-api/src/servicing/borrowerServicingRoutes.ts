import { randomUUID } from 'node:crypto';
import Router from '@koa/router';
import { payoffQuoteAnswer, toLoanDetailAnswer } from '@honeylend/contracts';
import { authenticate } from '../platform/sessions/authenticate.js';
import { memberOnWriteSide, writeSideMemberOf } from '../members/memberOnWriteSide.js';
import { readAfterWrite } from '../platform/consistency/readAfterWrite.js';
import { callerOf, metadataOf, type ApiDeps } from '../platform/context/context.js';
import { idFromPath } from '../platform/http/pathId.js';
import { LOAN_NOT_FOUND } from '../lending/loanAccountCommands.js';
import { walletRepaymentBody } from './servicingBodies.js';
import { payFromWallet } from './walletRepayment.js';
import { ApiError } from '../platform/errors/apiError.js';
import { derivedId } from '../platform/ids/derivedId.js';
import { endpoint } from '../platform/http/endpoint.js';
import * as answers from '../platform/http/answerSchemas.js';

const notFound = { code: 'LOAN_NOT_FOUND', message: 'Loan not found' };

/** A repayment id made from the caller and their Idempotency-Key: a retry resumes the same repayment. */
function repaymentIdFor(memberId: string, idempotencyKey: string | undefined): string {
  return idempotencyKey ? derivedId(`wallet-repayment:${memberId}:${idempotencyKey}`) : randomUUID();
}

/** The borrower's own loan: its answer, its payoff quote, and paying it from the wallet. */
export function borrowerServicingRoutes(deps: ApiDeps): Router {
  const { readModels, progress, tokens } = deps;
  const router = new Router({ prefix: '/api/loans' });
  // Paying from the wallet moves money: the borrower is checked on the event store too.
  router.use(authenticate(tokens, readModels, ['borrower']), memberOnWriteSide(deps.store));

  const ownLoan = async (memberId: string, loanId: string) => {
    const doc = await readModels.loan(loanId);
    if (!doc || doc.memberId !== memberId) throw LOAN_NOT_FOUND();
    return doc;
  };

  router.get(
    '/:id',
    endpoint({ summary: "The borrower's own loan with its account", answer: answers.loanDetailAnswer, refusals: ['404 LOAN_NOT_FOUND'] }, async (ctx) => {
      const doc = await ownLoan(callerOf(ctx).id, idFromPath(ctx, notFound));
      ctx.body = toLoanDetailAnswer(doc, await deps.businessClock.today());
    }),
  );

  /** Spec §9 (prepayment without penalty): unpaid principal, interest already due, unpaid late charges. */
  router.get(
    '/:id/payoff-quote',
    endpoint({ summary: 'What paying the loan off today takes', answer: answers.payoffQuote, refusals: ['409 LOAN_NOT_ACTIVE'] }, async (ctx) => {
      const doc = await ownLoan(callerOf(ctx).id, idFromPath(ctx, notFound));
      if (!doc.account || doc.status !== 'active') {
        throw new ApiError(409, 'LOAN_NOT_ACTIVE', `This loan is ${doc.status.replaceAll('_', ' ')}; only an active loan has a payoff amount.`);
      }
      ctx.body = payoffQuoteAnswer(doc.account, await deps.businessClock.today());
    }),
  );

  router.post(
    '/:id/repayments',
    endpoint(
      { summary: 'Pay toward the loan from the wallet', body: walletRepaymentBody, status: 201, answer: answers.repaymentReceipt, refusals: ['400 AMOUNT_ABOVE_PAYOFF', '400 INSUFFICIENT_FUNDS', '409 LOAN_NOT_ACTIVE'] },
      async (ctx, { body: { amount } }) => {
        const memberId = callerOf(ctx).id;
        const loanId = idFromPath(ctx, notFound);
        const { receipt, position } = await payFromWallet(deps, metadataOf(ctx, memberId), {
          memberId,
          loanId,
          repaymentId: repaymentIdFor(memberId, ctx.get('Idempotency-Key') || undefined),
          amountCentavos: amount,
          member: writeSideMemberOf(ctx),
        });
        await readAfterWrite(ctx, progress, position, async () => undefined);
        ctx.status = 201;
        ctx.body = receipt;
      },
    ),
  );

  return router;
}
