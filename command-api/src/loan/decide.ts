import { canChangeLoanStatus, isBuiltInLoanStatus, isDeletable } from '@honeylend/contracts';
import { DomainError, type Decider } from '../domain/decider.js';
import { evolveLoan, initialLoanState, type ExistingLoan, type LoanEvent, type LoanState } from './loan.js';

export const LOAN_MESSAGES = {
  notFound: 'Loan not found',
  accountIssueNeedsMessage: 'Tell the borrower what to fix: account_issue needs a message.',
} as const;

export type LoanCommand =
  | {
      type: 'ApplyForLoan';
      loanId: string;
      memberId: string;
      loanNumber: string;
      amountCentavos: number;
      termMonths: number;
      monthlyRateBps: number;
      purpose: string;
      now: string;
    }
  | {
      type: 'ChangeLoanStatus';
      loanId: string;
      to: string;
      /** What the borrower reads about this status; required for account_issue. */
      message: string | null;
      /** The admin-defined statuses as the settings stream holds them now. */
      customStatuses: readonly string[];
      now: string;
    }
  | { type: 'ChangeLoanTerms'; loanId: string; amountCentavos?: number; termMonths?: number; now: string }
  | { type: 'DeleteLoan'; loanId: string; now: string };

function existing(state: LoanState): ExistingLoan {
  if (!state.exists) throw new DomainError(404, 'LOAN_NOT_FOUND', LOAN_MESSAGES.notFound);
  return state;
}

const statusLabel = (status: string) => status.replaceAll('_', ' ');

export function decideLoan(command: LoanCommand, state: LoanState): LoanEvent[] {
  switch (command.type) {
    case 'ApplyForLoan': {
      // A retried application (same loan id) changes nothing.
      if (state.exists || state.deleted) {
        if (state.memberId !== command.memberId) throw new DomainError(409, 'LOAN_EXISTS', 'This loan already exists');
        return [];
      }
      const { loanId, memberId, loanNumber, amountCentavos, termMonths, monthlyRateBps, purpose, now } = command;
      return [{ type: 'LoanApplied', data: { loanId, memberId, loanNumber, amountCentavos, termMonths, monthlyRateBps, purpose, appliedAt: now } }];
    }
    case 'ChangeLoanStatus': {
      const loan = existing(state);
      const { to, message, customStatuses } = command;
      // Asking for the status the loan already has is a retry (or a second admin agreeing): nothing to record.
      if (loan.status === to) return [];
      if (!isBuiltInLoanStatus(to) && !customStatuses.includes(to)) {
        throw new DomainError(400, 'UNKNOWN_LOAN_STATUS', `"${to}" is not a loan status. Add it as a custom status first.`);
      }
      if (!canChangeLoanStatus(loan.status, to, customStatuses)) {
        throw new DomainError(409, 'ILLEGAL_STATUS_CHANGE', `This loan is ${statusLabel(loan.status)}; it cannot become ${statusLabel(to)}.`, {
          currentStatus: loan.status,
        });
      }
      if (to === 'account_issue' && !message) throw new DomainError(400, 'MESSAGE_REQUIRED', LOAN_MESSAGES.accountIssueNeedsMessage);
      return [{ type: 'LoanStatusChanged', data: { loanId: loan.loanId, memberId: loan.memberId, from: loan.status, to, message, changedAt: command.now } }];
    }
    case 'ChangeLoanTerms': {
      const loan = existing(state);
      const amountCentavos = command.amountCentavos ?? loan.amountCentavos;
      const termMonths = command.termMonths ?? loan.termMonths;
      if (amountCentavos === loan.amountCentavos && termMonths === loan.termMonths) return [];
      if (loan.status !== 'pending') {
        throw new DomainError(409, 'LOAN_NOT_PENDING', `The amount and term can only change while the loan is pending; this loan is ${statusLabel(loan.status)}.`, {
          currentStatus: loan.status,
        });
      }
      return [
        {
          type: 'LoanTermsChanged',
          data: {
            loanId: loan.loanId,
            memberId: loan.memberId,
            amountCentavos,
            termMonths,
            previousAmountCentavos: loan.amountCentavos,
            previousTermMonths: loan.termMonths,
            changedAt: command.now,
          },
        },
      ];
    }
    case 'DeleteLoan': {
      // A retried deletion changes nothing; the caller goes on to close the member's application.
      if (!state.exists && state.deleted) return [];
      const loan = existing(state);
      if (!isDeletable(loan.status)) {
        throw new DomainError(409, 'LOAN_NOT_DELETABLE', `Only pending or denied loans can be deleted; this loan is ${statusLabel(loan.status)}.`, {
          currentStatus: loan.status,
        });
      }
      return [{ type: 'LoanDeleted', data: { loanId: loan.loanId, memberId: loan.memberId, status: loan.status, deletedAt: command.now } }];
    }
  }
}

export const loanDecider: Decider<LoanState, LoanCommand, LoanEvent> = {
  initialState: initialLoanState,
  evolve: evolveLoan,
  decide: decideLoan,
};
