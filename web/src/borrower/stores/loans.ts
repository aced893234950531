import { fieldErrorsOf, isOpenApplication, loanApplicationBody, mayApplyAgain, type LoanAnswer } from '@honeylend/contracts';
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

export interface LoanApplicationValues {
  amount: string;
  purpose: string;
  termMonths: string;
}

export type LoanApplicationField = keyof LoanApplicationValues;
export type LoanApplicationErrors = Partial<Record<LoanApplicationField, string>>;

/** Spec §3: amount 80,000, empty purpose, 12 months. */
export const DEFAULT_LOAN_APPLICATION: LoanApplicationValues = { amount: '80000', purpose: '', termMonths: '12' };

/** Checks the form with the server's own rules and messages (spec §5), one message per field. */
export function validateLoanApplication(values: LoanApplicationValues): { ok: true; body: { amount: number; purpose: string; termMonths: number } } | { ok: false; errors: LoanApplicationErrors } {
  const body = { amount: values.amount.trim(), purpose: values.purpose, termMonths: values.termMonths.trim() };
  const result = loanApplicationBody.safeParse(body);
  if (!result.success) {
    const fields = fieldErrorsOf(result.error);
    const errors: LoanApplicationErrors = {};
    for (const field of ['amount', 'purpose', 'termMonths'] as const) if (fields[field]) errors[field] = fields[field];
    return { ok: false, errors };
  }
  return { ok: true, body: { amount: result.data.amountCentavos / 100, purpose: result.data.purpose, termMonths: result.data.termMonths } };
}

/** POST /api/loans, then the list is refreshed (spec §4). Rejects with the ApiError. */
export async function submitLoanApplication(body: { amount: number; purpose: string; termMonths: number }): Promise<LoanAnswer> {
  const loan = await apiRequest<LoanAnswer>('/api/loans', { method: 'POST', body });
  if (loan && typeof loan.version === 'number') useLoans.getState().apply(loan);
  void useLoans.getState().fetch();
  return loan;
}
