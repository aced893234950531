import '../../shared/zodWithoutEval';
import { fieldErrorsOf, loanApplicationBody } from '@honeylend/contracts';

// The application form's rules, with the dialog (its own chunk): the loans store, in the
// dashboard's first load, holds no zod schema, so the dashboard builds none before it draws
// (issue 20: evaluating zod's schemas was one of the dashboard's long tasks on a phone).

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
