import { describe, expect, it } from 'vitest';
import { fieldErrorsOf } from '../validation.js';
import {
  adminLoanTermsBody,
  DEFAULT_MONTHLY_RATE_BPS,
  LOAN_AMOUNT_DEFAULT_CENTAVOS,
  LOAN_AMOUNT_MAX_CENTAVOS,
  LOAN_AMOUNT_MIN_CENTAVOS,
  LOAN_AMOUNT_STEP_CENTAVOS,
  LOAN_TERM_DEFAULT_MONTHS,
  loanApplicationBody,
} from './loanRules.js';

type Schema = { safeParse(value: unknown): { success: boolean; error?: unknown } };

function errorsOf(schema: Schema, value: unknown) {
  const result = schema.safeParse(value);
  return result.success ? {} : fieldErrorsOf(result.error as never);
}

const validApplication = { amount: 80_000, purpose: 'Sari-sari store stock', termMonths: 12 };

describe('loan constants (spec §9)', () => {
  it('holds the limits in centavos and the default rate in basis points', () => {
    expect(LOAN_AMOUNT_MIN_CENTAVOS).toBe(8_000_000);
    expect(LOAN_AMOUNT_MAX_CENTAVOS).toBe(400_000_000);
    expect(LOAN_AMOUNT_STEP_CENTAVOS).toBe(1_000_000);
    expect(LOAN_AMOUNT_DEFAULT_CENTAVOS).toBe(8_000_000);
    expect(LOAN_TERM_DEFAULT_MONTHS).toBe(12);
    expect(DEFAULT_MONTHLY_RATE_BPS).toBe(250);
  });
});

describe('loan application body (spec §5)', () => {
  it('accepts the form defaults and answers in centavos with the purpose trimmed', () => {
    expect(loanApplicationBody.parse({ ...validApplication, purpose: '  Tricycle repair  ' })).toEqual({
      amountCentavos: 8_000_000,
      purpose: 'Tricycle repair',
      termMonths: 12,
    });
  });

  it('accepts the amount as a numeric string, and both ends of the range', () => {
    expect(loanApplicationBody.parse({ ...validApplication, amount: ' 4000000.00 ', termMonths: 48 })).toMatchObject({
      amountCentavos: 400_000_000,
      termMonths: 48,
    });
    expect(loanApplicationBody.parse({ ...validApplication, amount: '80000', termMonths: 6 })).toMatchObject({
      amountCentavos: 8_000_000,
      termMonths: 6,
    });
  });

  it('rejects a loan below ₱80,000 with the spec message', () => {
    expect(errorsOf(loanApplicationBody, { ...validApplication, amount: 70_000 })).toEqual({ amount: 'Minimum loan amount is ₱80,000' });
    expect(errorsOf(loanApplicationBody, { ...validApplication, amount: 79_999.99 }).amount).toBe('Minimum loan amount is ₱80,000');
    expect(errorsOf(loanApplicationBody, { ...validApplication, amount: -80_000 }).amount).toBe('Minimum loan amount is ₱80,000');
  });

  it('rejects a loan above ₱4,000,000 with the spec message', () => {
    expect(errorsOf(loanApplicationBody, { ...validApplication, amount: 4_010_000 })).toEqual({ amount: 'Maximum loan amount is ₱4,000,000' });
    expect(errorsOf(loanApplicationBody, { ...validApplication, amount: '4000000.01' }).amount).toBe('Maximum loan amount is ₱4,000,000');
  });

  it('rejects an amount off the ₱10,000 step, including fractions of a peso and of a centavo', () => {
    for (const amount of [85_000, 90_000.5, '90000.01', 90_000.001]) {
      expect(errorsOf(loanApplicationBody, { ...validApplication, amount })).toEqual({ amount: 'Loan amounts go in steps of ₱10,000' });
    }
  });

  it('rejects a missing or non-numeric amount', () => {
    for (const amount of [undefined, null, '', 'eighty thousand', '80,000', Number.NaN, Number.POSITIVE_INFINITY, true]) {
      expect(errorsOf(loanApplicationBody, { ...validApplication, amount }).amount).toBe('Enter the loan amount in pesos');
    }
  });

  it('asks for a purpose of at least three characters after trimming, and at most 500', () => {
    for (const purpose of [undefined, '', 'ab', '   ab   ', 42]) {
      expect(errorsOf(loanApplicationBody, { ...validApplication, purpose })).toEqual({ purpose: 'Please describe the purpose of the loan' });
    }
    expect(loanApplicationBody.parse({ ...validApplication, purpose: 'x'.repeat(500) }).purpose).toHaveLength(500);
    expect(errorsOf(loanApplicationBody, { ...validApplication, purpose: 'x'.repeat(501) }).purpose).toBe('Please keep the purpose under 500 characters');
  });

  it('rejects a 5-month term with the spec message', () => {
    expect(errorsOf(loanApplicationBody, { ...validApplication, termMonths: 5 })).toEqual({ termMonths: 'Minimum term is 6 months' });
  });

  it('rejects a 49-month term from a borrower with the spec message', () => {
    expect(errorsOf(loanApplicationBody, { ...validApplication, termMonths: 49 })).toEqual({ termMonths: 'Maximum term is 48 months' });
    expect(errorsOf(loanApplicationBody, { ...validApplication, termMonths: 60 })).toEqual({ termMonths: 'Maximum term is 48 months' });
  });

  it('rejects a term that is not a whole number of months', () => {
    expect(errorsOf(loanApplicationBody, { ...validApplication, termMonths: 12.5 })).toEqual({
      termMonths: 'Term must be a whole number of months',
    });
    expect(errorsOf(loanApplicationBody, { ...validApplication, termMonths: undefined }).termMonths).toBe('Choose a term in months');
  });

  it('reports every broken rule at once, one message per field', () => {
    expect(errorsOf(loanApplicationBody, { amount: 10_000, purpose: 'no', termMonths: 3 })).toEqual({
      amount: 'Minimum loan amount is ₱80,000',
      purpose: 'Please describe the purpose of the loan',
      termMonths: 'Minimum term is 6 months',
    });
  });
});

describe('admin loan terms body (spec §5: term 6 to 60 in admin edit)', () => {
  it('lets an admin set a term up to 60 months, and either field alone', () => {
    expect(adminLoanTermsBody.parse({ termMonths: 60 })).toEqual({ termMonths: 60 });
    expect(adminLoanTermsBody.parse({ amount: '250000' })).toEqual({ amountCentavos: 25_000_000 });
    expect(adminLoanTermsBody.parse({ amount: 4_000_000, termMonths: 6 })).toEqual({ amountCentavos: 400_000_000, termMonths: 6 });
    expect(adminLoanTermsBody.parse({})).toEqual({});
  });

  it('answers the admin limits with their messages', () => {
    expect(errorsOf(adminLoanTermsBody, { termMonths: 61 })).toEqual({ termMonths: 'Maximum term is 60 months' });
    expect(errorsOf(adminLoanTermsBody, { termMonths: 5 })).toEqual({ termMonths: 'Minimum term is 6 months' });
    expect(errorsOf(adminLoanTermsBody, { termMonths: 24.5 })).toEqual({ termMonths: 'Term must be a whole number of months' });
    expect(errorsOf(adminLoanTermsBody, { amount: 50_000 })).toEqual({ amount: 'Minimum loan amount is ₱80,000' });
    expect(errorsOf(adminLoanTermsBody, { amount: 5_000_000 })).toEqual({ amount: 'Maximum loan amount is ₱4,000,000' });
    expect(errorsOf(adminLoanTermsBody, { amount: 123_456 })).toEqual({ amount: 'Loan amounts go in steps of ₱10,000' });
  });
});
