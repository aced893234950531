import { DomainError, type Decider } from '../domain/decider.js';
import { evolveLoan, initialLoanState, type LoanEvent, type LoanState } from './loan.js';

export type LoanCommand = {
  type: 'ApplyForLoan';
  loanId: string;
  memberId: string;
  loanNumber: string;
  amountCentavos: number;
  termMonths: number;
  monthlyRateBps: number;
  purpose: string;
  now: string;
};

export function decideLoan(command: LoanCommand, state: LoanState): LoanEvent[] {
  switch (command.type) {
    case 'ApplyForLoan': {
      // A retried application (same loan id) changes nothing.
      if (state.exists) {
        if (state.memberId !== command.memberId) throw new DomainError(409, 'LOAN_EXISTS', 'This loan already exists');
        return [];
      }
      const { loanId, memberId, loanNumber, amountCentavos, termMonths, monthlyRateBps, purpose, now } = command;
      return [{ type: 'LoanApplied', data: { loanId, memberId, loanNumber, amountCentavos, termMonths, monthlyRateBps, purpose, appliedAt: now } }];
    }
  }
}

export const loanDecider: Decider<LoanState, LoanCommand, LoanEvent> = {
  initialState: initialLoanState,
  evolve: evolveLoan,
  decide: decideLoan,
};
