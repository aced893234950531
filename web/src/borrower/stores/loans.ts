import { isOpenApplication, mayApplyAgain, type LoanAnswer } from '@honeylend/contracts';
import { apiRequest } from '../../shared/api';
import { createVersionedListStore } from './versionedListStore';

/** The member's loans (GET /api/loans/user), newest first, kept current by `loan.updated` pushes. */
export const useLoans = createVersionedListStore<LoanAnswer>('/api/loans/user');

/** Whether the loan still blocks a new application: the API's own rule (@honeylend/contracts). */
export function isOpenLoan(loan: LoanAnswer): boolean {
  return isOpenApplication(loan.status);
}

/** "May apply again", by the one rule the API decides with (@honeylend/contracts mayApplyAgain). */
export function mayApply(loans: readonly LoanAnswer[]): boolean {
  return mayApplyAgain(loans.map((loan) => loan.status));
}

/** POST /api/loans/:id/cancellation: the borrower withdraws their application while it is under review. Rejects with the ApiError. */
export async function cancelLoanApplication(loanId: string): Promise<LoanAnswer> {
  const loan = await apiRequest<LoanAnswer>(`/api/loans/${loanId}/cancellation`, { method: 'POST' });
  if (loan && typeof loan.version === 'number') useLoans.getState().apply(loan);
  return loan;
}

/** Spec §4: the contract and the dashboard show the approved or active loan, else the first. */
export function loanInFocus(loans: readonly LoanAnswer[]): LoanAnswer | null {
  return loans.find((loan) => loan.status === 'approved' || loan.status === 'active') ?? loans[0] ?? null;
}

/** POST /api/loans, then the list is refreshed (spec §4). Rejects with the ApiError. */
export async function submitLoanApplication(body: { amount: number; purpose: string; termMonths: number }): Promise<LoanAnswer> {
  const loan = await apiRequest<LoanAnswer>('/api/loans', { method: 'POST', body });
  if (loan && typeof loan.version === 'number') useLoans.getState().apply(loan);
  void useLoans.getState().fetch();
  return loan;
}
