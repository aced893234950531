import { evolveLoanAccount, isLoanAccountEvent, type EventOf, type LoanAccount, type LoanAccountEvent } from '@honeylend/contracts';

export type LoanEvent = EventOf<'LoanApplied' | 'LoanStatusChanged' | 'LoanTermsChanged' | 'LoanDeleted' | 'LoanTermsAccepted' | 'LoanApprovalLapsed' | 'LoanApplicationCancelled'> | LoanAccountEvent;

export interface ExistingLoan {
  exists: true;
  loanId: string;
  memberId: string;
  loanNumber: string;
  amountCentavos: number;
  termMonths: number;
  monthlyRateBps: number;
  appliedAt: string;
  status: string;
  /** When an admin approved it (the Disclosure Statement's acceptance period runs from here); null before. */
  approvedAt: string | null;
  /**
   * The borrower's acceptance of the Disclosure Statement (RA 3765); disbursement waits for it, and
   * the account opens on its business date (null on acceptances recorded before it was kept).
   */
  acceptedTerms: { statementHash: string; acceptedAt: string; businessDate: string | null } | null;
  /** Opened by disbursement; the servicing fold (@honeylend/contracts loans/servicing) works on it. */
  account: LoanAccount | null;
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
    const { loanId, memberId, loanNumber, amountCentavos, termMonths, monthlyRateBps, appliedAt } = event.data;
    return { exists: true, loanId, memberId, loanNumber, amountCentavos, termMonths, monthlyRateBps, appliedAt, status: 'pending', approvedAt: null, acceptedTerms: null, account: null };
  }
  if (!state.exists) return state;
  if (isLoanAccountEvent(event)) {
    const account = evolveLoanAccount(state.account, event);
    // The status follows the money: disbursement opens the account, the payoff closes it.
    const status = event.type === 'LoanAccountOpened' ? 'active' : event.type === 'LoanPaidOff' ? 'completed' : state.status;
    return { ...state, account, status };
  }
  switch (event.type) {
    case 'LoanStatusChanged':
      return { ...state, status: event.data.to, approvedAt: event.data.to === 'approved' ? event.data.changedAt : state.approvedAt };
    case 'LoanTermsAccepted':
      return { ...state, acceptedTerms: { statementHash: event.data.statementHash, acceptedAt: event.data.acceptedAt, businessDate: event.data.businessDate ?? null } };
    case 'LoanApprovalLapsed':
      return { ...state, status: 'lapsed' };
    case 'LoanApplicationCancelled':
      return { ...state, status: 'cancelled' };
    case 'LoanTermsChanged':
      return { ...state, amountCentavos: event.data.amountCentavos, termMonths: event.data.termMonths };
    case 'LoanDeleted':
      return { exists: false, deleted: true, loanId: state.loanId, memberId: state.memberId, status: state.status };
  }
}
