import type { ApprovedCommandRunners } from '../../approvals/fourEyes.js';
import { ApiError } from '../../platform/errors/apiError.js';
import { changeLoanStatus } from '../loanCommands.js';

/** The loan commands four eyes may hold, as they run once a second admin approves them. */
export const approvedLoanCommands: Pick<ApprovedCommandRunners, 'loan_approval'> = {
  loan_approval: (deps, ctx, { command }, checkerId) => {
    // The grant approves the terms the request recorded, and only those (design §11): the loan's
    // decider refuses it when the loan no longer has them. A request recorded without its term and
    // rate cannot say what was approved, so it never runs.
    if (command.termMonths === undefined || command.monthlyRateBps === undefined) {
      throw new ApiError(409, 'APPROVAL_TERMS_CHANGED', 'This request does not record the loan’s term and rate; ask for a new approval of the terms the loan has now.');
    }
    const grantedTerms = { amountCentavos: command.amountCentavos, termMonths: command.termMonths, monthlyRateBps: command.monthlyRateBps };
    const notify = typeof command.notify === 'object' && command.notify !== null ? { title: command.notify.title, message: command.notify.message } : (command.notify ?? undefined);
    return changeLoanStatus(deps, ctx, checkerId, command.loanId, { status: 'approved', message: command.message ?? undefined, notify }, { grantedTerms });
  },
};
