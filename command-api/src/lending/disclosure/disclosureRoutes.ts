import Router from '@koa/router';
import { z } from 'zod';
import { toLoanDetailAnswer } from '@honeylend/contracts';
import { authenticate } from '../../platform/sessions/authenticate.js';
import { readAfterWrite } from '../../platform/consistency/readAfterWrite.js';
import { closeLapsedApproval } from '../lapsedApproval.js';
import { ApiError } from '../../platform/errors/apiError.js';
import { DomainError } from '../../platform/commands/decider.js';
import { callerOf, metadataOf, type ApiDeps } from '../../platform/context/context.js';
import { idFromPath } from '../../platform/http/pathId.js';
import { settleLoanMoney } from '../loanCommands.js';
import { memberOnWriteSide } from '../../members/memberOnWriteSide.js';
import { latest, loadLoan, loanAfter, LOAN_NOT_FOUND, onLoan } from '../loanAccountCommands.js';
import { LOAN_MESSAGES } from '../decide.js';
import { disclosedLoanOf, disclosedLoanOfState, disclosureOf } from './loanDisclosure.js';
import { disclosurePdf } from './disclosurePdf.js';
import { endpoint } from '../../platform/http/endpoint.js';
import * as answers from '../../platform/http/answerSchemas.js';

const notFound = { code: 'LOAN_NOT_FOUND', message: 'Loan not found' };

export const acceptanceBody = z
  .object({
    hash: z
      .string({ error: 'Send the hash of the Disclosure Statement you accept' })
      .regex(/^[0-9a-fA-F]{64}$/, 'The hash is the SHA-256 (64 hexadecimal characters) GET /api/loans/:id/disclosure answered')
      .transform((hash) => hash.toLowerCase()),
  })
  .strict();

/**
 * RA 3765: the borrower reads the final Disclosure Statement of their approved loan (as JSON or a
 * PDF to keep) and accepts it; the acceptance records the statement's SHA-256, the time and the
 * address, and only then does the money move.
 */
export function disclosureRoutes(deps: ApiDeps): Router {
  const { readModels, progress, tokens } = deps;
  const router = new Router({ prefix: '/api/loans' });
  // Accepting is the borrower's consent and pays the loan out: the token is checked on the member's stream too.
  router.use(authenticate(tokens, readModels, ['borrower']), memberOnWriteSide(deps.store));

  const ownLoan = async (memberId: string, loanId: string) => {
    const doc = await readModels.loan(loanId);
    if (!doc || doc.memberId !== memberId) throw LOAN_NOT_FOUND();
    return doc;
  };

  router.get(
    '/:id/disclosure',
    endpoint({ summary: "The loan's Disclosure Statement: its exact text and SHA-256", answer: answers.disclosureAnswer, refusals: ['404 LOAN_NOT_FOUND'] }, async (ctx) => {
      const doc = await ownLoan(callerOf(ctx).id, idFromPath(ctx, notFound));
      ctx.body = await disclosureOf(deps, disclosedLoanOf(doc), await deps.businessClock.today());
    }),
  );

  router.get(
    '/:id/disclosure.pdf',
    endpoint({ summary: 'The Disclosure Statement as a PDF', answer: { file: ['application/pdf'] }, refusals: ['404 LOAN_NOT_FOUND'] }, async (ctx) => {
      const doc = await ownLoan(callerOf(ctx).id, idFromPath(ctx, notFound));
      const pdf = await disclosurePdf(await disclosureOf(deps, disclosedLoanOf(doc), await deps.businessClock.today()), doc.loanNumber);
      ctx.type = 'application/pdf';
      ctx.set('Content-Disposition', `attachment; filename="disclosure-statement-${doc.loanNumber}.pdf"`);
      ctx.body = pdf;
    }),
  );

  router.post(
    '/:id/acceptance',
    endpoint(
      { summary: 'Accept the Disclosure Statement by its hash', body: acceptanceBody, answer: answers.loanDetailAnswer, refusals: ['409 LOAN_NOT_AWAITING_ACCEPTANCE', '409 STATEMENT_CHANGED'] },
      async (ctx, { body: { hash } }) => {
        const memberId = callerOf(ctx).id;
        const loanId = idFromPath(ctx, notFound);
        const metadata = metadataOf(ctx, memberId);
        // The business clock, as the approval and the lapse job read it: the 7 days end on the business date.
        const now = (await deps.businessClock.businessNow()).toISOString();
        const before = await loadLoan(deps, loanId);
        if (before.memberId !== memberId) throw LOAN_NOT_FOUND();
        // An acceptance after the period: the lapse is recorded first, so it is on the log whoever notices it.
        const lapse = await onLoan(deps, loanId, { type: 'LapseApproval', loanId, now }, metadata);
        if (lapse.events.length > 0) {
          await closeLapsedApproval({ store: deps.store, notificationQueue: deps.jobs.notificationQueue }, before, now, metadata);
          throw new ApiError(409, 'APPROVAL_LAPSED', LOAN_MESSAGES.approvalLapsed);
        }
        // The statement as it reads now, from the stream just read and for today's business date (the
        // day this acceptance disburses on, its schedule's start): the hash sent must be this one's.
        const businessDate = await deps.businessClock.today();
        const current = await disclosureOf(deps, disclosedLoanOfState(before), businessDate);
        const result = await onLoan(deps, loanId, { type: 'AcceptLoanTerms', loanId, memberId, statementHash: hash, currentStatementHash: current.hash, ipAddress: ctx.ip, businessDate, now }, metadata).catch(
          (error: unknown) => {
            // A statement read on an earlier business date shows due dates that no longer apply: refused with the one that does.
            if (error instanceof DomainError && error.code === 'STATEMENT_CHANGED') throw new ApiError(409, error.code, error.message, { disclosure: current });
            throw error;
          },
        );
        const accepted = loanAfter(result);
        const position = latest(result.position, await settleLoanMoney(deps, metadata, accepted, now));
        ctx.body = await readAfterWrite(ctx, progress, position, async () => {
          const doc = await readModels.loan(loanId);
          return doc ? toLoanDetailAnswer(doc, businessDate) : undefined;
        });
      },
    ),
  );

  return router;
}
