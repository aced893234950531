import { describe, expect, it } from 'vitest';
import { annualRateOf, monthlyInternalRateOfReturn, presentValue } from './effectiveRate.js';

describe('monthly internal rate of return', () => {
  it('recovers the rate of an ordinary amortising loan', () => {
    // ₱100,000 at 1 % a month over 12 months: payment = P·i / (1 − (1+i)^−12).
    const principal = 10_000_000;
    const rate = 0.01;
    const payment = (principal * rate) / (1 - (1 + rate) ** -12);
    const cashFlows = Array.from({ length: 12 }, (_, index) => ({ monthsFromStart: index + 1, amount: payment }));
    expect(Math.abs(monthlyInternalRateOfReturn(principal, cashFlows) - rate)).toBeLessThan(1e-10);
  });

  it('recovers a single repayment after a year as compound growth', () => {
    // 1,000 lent, 2,000 back after 12 months: (1 + r)^12 = 2.
    const rate = monthlyInternalRateOfReturn(1000, [{ monthsFromStart: 12, amount: 2000 }]);
    expect(Math.abs(rate - (2 ** (1 / 12) - 1))).toBeLessThan(1e-12);
    expect(annualRateOf(rate)).toBeCloseTo(1, 10);
  });

  it('answers 0 when the payments only give the money back', () => {
    expect(
      monthlyInternalRateOfReturn(1200, [
        { monthsFromStart: 1, amount: 600 },
        { monthsFromStart: 2, amount: 600 },
      ]),
    ).toBe(0);
  });

  it('finds very high rates too', () => {
    const rate = monthlyInternalRateOfReturn(100, [{ monthsFromStart: 1, amount: 1_000 }]);
    expect(rate).toBeCloseTo(9, 10);
    expect(presentValue([{ monthsFromStart: 1, amount: 1_000 }], rate)).toBeCloseTo(100, 8);
  });

  it('refuses cash flows that cannot describe a loan', () => {
    expect(() => monthlyInternalRateOfReturn(0, [{ monthsFromStart: 1, amount: 1 }])).toThrow(RangeError);
    expect(() => monthlyInternalRateOfReturn(100, [{ monthsFromStart: 0, amount: 101 }])).toThrow(RangeError);
    expect(() => monthlyInternalRateOfReturn(100, [{ monthsFromStart: 1, amount: -1 }])).toThrow(RangeError);
  });
});
