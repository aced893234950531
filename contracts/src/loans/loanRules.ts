import { z } from 'zod';
import { CENTAVOS_PER_PESO, type Centavos } from '../money.js';

/** Spec §9 limits, in centavos so the rules compare integers with integers. */
export const LOAN_AMOUNT_MIN_CENTAVOS: Centavos = 80_000 * CENTAVOS_PER_PESO;
export const LOAN_AMOUNT_MAX_CENTAVOS: Centavos = 4_000_000 * CENTAVOS_PER_PESO;
export const LOAN_AMOUNT_STEP_CENTAVOS: Centavos = 10_000 * CENTAVOS_PER_PESO;
export const LOAN_AMOUNT_DEFAULT_CENTAVOS: Centavos = 80_000 * CENTAVOS_PER_PESO;

export const LOAN_TERM_MIN_MONTHS = 6;
export const BORROWER_LOAN_TERM_MAX_MONTHS = 48;
export const ADMIN_LOAN_TERM_MAX_MONTHS = 60;
export const LOAN_TERM_DEFAULT_MONTHS = 12;

/** Rates are stored as integer basis points per month (250 = 2.5 %) so no float ever reaches an event. */
export const BASIS_POINTS_PER_UNIT = 10_000;
export const DEFAULT_MONTHLY_RATE_BPS = 250;

export const LOAN_PURPOSE_MIN_CHARACTERS = 3;
export const LOAN_PURPOSE_MAX_CHARACTERS = 500;

/** Spec §5 wording where the spec has one; the rest covers inputs the spec's form never sends. */
export const LOAN_MESSAGES = {
  amountBelowMinimum: 'Minimum loan amount is ₱80,000',
  amountAboveMaximum: 'Maximum loan amount is ₱4,000,000',
  amountOffStep: 'Loan amounts go in steps of ₱10,000',
  amountRequired: 'Enter the loan amount in pesos',
  purposeRequired: 'Please describe the purpose of the loan',
  purposeTooLong: `Please keep the purpose under ${LOAN_PURPOSE_MAX_CHARACTERS} characters`,
  termBelowMinimum: 'Minimum term is 6 months',
  borrowerTermAboveMaximum: 'Maximum term is 48 months',
  adminTermAboveMaximum: 'Maximum term is 60 months',
  termWholeMonths: 'Term must be a whole number of months',
  termRequired: 'Choose a term in months',
} as const;

const pesosInput = z.union(
  [
    z.number(),
    z
      .string()
      .trim()
      .regex(/^\d+(\.\d+)?$/)
      .transform(Number),
  ],
  {
    error: LOAN_MESSAGES.amountRequired,
  },
);

/** A loan amount in pesos (number or numeric string) checked against the limits and step, answered in centavos. */
const loanAmountField = pesosInput.transform((pesos, ctx): Centavos => {
  // Unrounded on purpose: any fraction of a centavo leaves a non-integer, which the step check refuses.
  const centavos = pesos * CENTAVOS_PER_PESO;
  if (centavos < LOAN_AMOUNT_MIN_CENTAVOS) ctx.addIssue({ code: 'custom', message: LOAN_MESSAGES.amountBelowMinimum });
  else if (centavos > LOAN_AMOUNT_MAX_CENTAVOS) ctx.addIssue({ code: 'custom', message: LOAN_MESSAGES.amountAboveMaximum });
  else if (!Number.isSafeInteger(centavos) || centavos % LOAN_AMOUNT_STEP_CENTAVOS !== 0) ctx.addIssue({ code: 'custom', message: LOAN_MESSAGES.amountOffStep });
  else return centavos;
  return z.NEVER;
});

const termMonthsField = (maxMonths: number, aboveMaximumMessage: string) =>
  z
    .union(
      [
        z.number(),
        z
          .string()
          .trim()
          .regex(/^\d+(\.\d+)?$/)
          .transform(Number),
      ],
      { error: LOAN_MESSAGES.termRequired },
    )
    .transform((months, ctx) => {
      if (months < LOAN_TERM_MIN_MONTHS) ctx.addIssue({ code: 'custom', message: LOAN_MESSAGES.termBelowMinimum });
      else if (months > maxMonths) ctx.addIssue({ code: 'custom', message: aboveMaximumMessage });
      else if (!Number.isInteger(months)) ctx.addIssue({ code: 'custom', message: LOAN_MESSAGES.termWholeMonths });
      else return months;
      return z.NEVER;
    });

const purposeField = z.string({ error: LOAN_MESSAGES.purposeRequired }).trim().min(LOAN_PURPOSE_MIN_CHARACTERS, LOAN_MESSAGES.purposeRequired).max(LOAN_PURPOSE_MAX_CHARACTERS, LOAN_MESSAGES.purposeTooLong);

/** POST /api/loans: the borrower's application form (spec §3) with the §5 rules. */
export const loanApplicationBody = z
  .object({
    amount: loanAmountField,
    purpose: purposeField,
    termMonths: termMonthsField(BORROWER_LOAN_TERM_MAX_MONTHS, LOAN_MESSAGES.borrowerTermAboveMaximum),
  })
  .transform(({ amount, purpose, termMonths }) => ({ amountCentavos: amount, purpose, termMonths }));
export type LoanApplicationBody = z.infer<typeof loanApplicationBody>;

/** PUT /api/admin/loans/{id} with amount and/or term: admins may go up to 60 months (spec §5). */
export const adminLoanTermsBody = z
  .object({
    amount: loanAmountField.optional(),
    termMonths: termMonthsField(ADMIN_LOAN_TERM_MAX_MONTHS, LOAN_MESSAGES.adminTermAboveMaximum).optional(),
  })
  .transform(({ amount, termMonths }) => ({
    ...(amount === undefined ? {} : { amountCentavos: amount }),
    ...(termMonths === undefined ? {} : { termMonths }),
  }));
export type AdminLoanTermsBody = z.infer<typeof adminLoanTermsBody>;
