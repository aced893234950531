import { describe, expect, it } from 'vitest';
import { fieldErrorsOf, loginBody, profileUpdateBody, registerBody } from './validation.js';

function errorsOf(schema: { safeParse(v: unknown): { success: boolean; error?: unknown } }, value: unknown) {
  const result = schema.safeParse(value);
  if (result.success) return {};
  return fieldErrorsOf(result.error as never);
}

describe('registration and login rules (spec §5)', () => {
  it('answers each rule with the spec wording', () => {
    expect(errorsOf(registerBody, { phone: '0917', password: '123', fullName: 'A', email: 'nope' })).toEqual({
      phone: 'Phone number is required',
      password: 'Password must be at least 6 characters',
      fullName: 'Full name is required',
      email: 'Valid email is required',
    });
    expect(errorsOf(loginBody, {})).toEqual({
      phone: 'Phone number is required',
      password: 'Password must be at least 6 characters',
    });
  });

  it('normalises the phone and treats an empty email as none', () => {
    const parsed = registerBody.parse({ phone: '0917 123 4567', password: 'secret1', fullName: ' Maria Santos ', email: '' });
    expect(parsed).toEqual({ phone: '+639171234567', password: 'secret1', fullName: 'Maria Santos', email: undefined });
  });

  it('refuses a ten-character string that is no mobile number', () => {
    expect(errorsOf(registerBody, { phone: '1234567890', password: 'secret1', fullName: 'Maria' }).phone).toBe('Enter a valid mobile number, e.g. 09171234567');
  });
});

describe('profile rules (spec §5)', () => {
  it('answers each rule with the spec wording', () => {
    expect(
      errorsOf(profileUpdateBody, {
        fullName: 'A',
        address: 'short',
        countryOfWork: 'X',
        monthlySalary: -1,
        referenceName: 'B',
        referencePhone: '123',
        bankName: '',
        bankAccountNumber: '123',
      }),
    ).toEqual({
      fullName: 'Full name is required',
      address: 'Address is required',
      countryOfWork: 'Country of work is required',
      monthlySalary: 'Monthly salary is required',
      referenceName: 'Reference name is required',
      referencePhone: 'Reference phone is required',
      bankName: 'Bank name is required',
      bankAccountNumber: 'Account number is required',
    });
  });

  it('takes the salary in pesos (number or numeric string) and stores centavos', () => {
    expect(profileUpdateBody.parse({ monthlySalary: '25000.50' })).toEqual({ monthlySalary: 2_500_050 });
    expect(profileUpdateBody.parse({ monthlySalary: 30000 })).toEqual({ monthlySalary: 3_000_000 });
  });

  it('takes pesos typed with thousands separators and ₱ (issue 22, item 6)', () => {
    expect(profileUpdateBody.parse({ monthlySalary: '25,000' })).toEqual({ monthlySalary: 2_500_000 });
    expect(profileUpdateBody.parse({ monthlySalary: '₱25,000.50' })).toEqual({ monthlySalary: 2_500_050 });
    expect(profileUpdateBody.parse({ monthlySalary: ' ₱ 1,250,000 ' })).toEqual({ monthlySalary: 125_000_000 });
    expect(profileUpdateBody.parse({ monthlySalary: 'PHP 25,000' })).toEqual({ monthlySalary: 2_500_000 });
    for (const unclear of ['2,50', '25,00,000', '25.000,00', '₱', '25,000.505', '-25,000']) {
      expect(profileUpdateBody.safeParse({ monthlySalary: unclear }).success, unclear).toBe(false);
    }
  });

  it('drops fields a borrower may not set', () => {
    expect(profileUpdateBody.parse({ balance: 1e9, status: 'active', role: 'superadmin', creditScore: 850, bankName: 'BPI' })).toEqual({
      bankName: 'BPI',
    });
  });
});
