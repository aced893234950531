import type { EventOf } from '@honeylend/contracts';

export type LoanEvent = EventOf<'LoanApplied' | 'LoanStatusChanged'>;

export type LoanState =
  | { exists: false }
  | {
      exists: true;
      loanId: string;
      memberId: string;
      loanNumber: string;
      amountCentavos: number;
      termMonths: number;
      monthlyRateBps: number;
      status: string;
    };

export const initialLoanState = (): LoanState => ({ exists: false });

export function evolveLoan(state: LoanState, event: LoanEvent): LoanState {
  switch (event.type) {
    case 'LoanApplied': {
      const { loanId, memberId, loanNumber, amountCentavos, termMonths, monthlyRateBps } = event.data;
      return { exists: true, loanId, memberId, loanNumber, amountCentavos, termMonths, monthlyRateBps, status: 'pending' };
    }
    case 'LoanStatusChanged':
      return state.exists ? { ...state, status: event.data.to } : state;
  }
}
