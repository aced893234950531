import { describe, expect, it } from 'vitest';
import { paymentToIncomePercent } from './paymentToIncome';

describe('payment to income (issue 22, item 16)', () => {
  it('is the share of the monthly salary one instalment takes', () => {
    expect(paymentToIncomePercent(16_250, 25_000)).toBe(65);
    expect(paymentToIncomePercent(10_833.33, 35_000)).toBe(31);
  });

  it('is unknown without a salary', () => {
    expect(paymentToIncomePercent(16_250, null)).toBeNull();
    expect(paymentToIncomePercent(16_250, 0)).toBeNull();
  });
});
