import type { EventOf } from '@honeylend/contracts';

export type LoanEvent = EventOf<'LoanApplied' | 'LoanStatusChanged' | 'LoanTermsChanged' | 'LoanDeleted'>;

export interface ExistingLoan {
  exists: true;
  loanId: string;
  memberId: string;
  loanNumber: string;
  amountCentavos: number;
  termMonths: number;
  monthlyRateBps: number;
  status: string;
}

/** A deleted application keeps its identity, so a retried deletion can finish what it started. */
export interface DeletedLoan {
  exists: false;
  deleted: true;
  loanId: string;
  memberId: string;
  status: string;
}

export type LoanState = { exists: false; deleted?: undefined } | DeletedLoan | ExistingLoan;

export const initialLoanState = (): LoanState => ({ exists: false });

export function evolveLoan(state: LoanState, event: LoanEvent): LoanState {
  if (event.type === 'LoanApplied') {
    const { loanId, memberId, loanNumber, amountCentavos, termMonths, monthlyRateBps } = event.data;
    return { exists: true, loanId, memberId, loanNumber, amountCentavos, termMonths, monthlyRateBps, status: 'pending' };
  }
  if (!state.exists) return state;
  switch (event.type) {
    case 'LoanStatusChanged':
      return { ...state, status: event.data.to };
    case 'LoanTermsChanged':
      return { ...state, amountCentavos: event.data.amountCentavos, termMonths: event.data.termMonths };
    case 'LoanDeleted':
      return { exists: false, deleted: true, loanId: state.loanId, memberId: state.memberId, status: state.status };
  }
}
