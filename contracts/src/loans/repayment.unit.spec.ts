import { describe, expect, it } from 'vitest';
import { financeCharge, instalmentAmounts, monthlyPayment, paymentSchedule, totalRepayable, truthInLending } from './repayment.js';

const defaultLoan = { principalCentavos: 8_000_000, monthlyRateBps: 250, termMonths: 12, startsOn: '2026-03-15T02:00:00Z' };

describe('finance charge (spec §9: principal × monthly rate × term)', () => {
  it('charges ₱24,000.00 on ₱80,000 at 2.5 % for 12 months', () => {
    expect(financeCharge(8_000_000, 250, 12)).toBe(2_400_000);
  });

  it('charges ₱6,000,000.00 on ₱4,000,000 at 2.5 % for 60 months', () => {
    expect(financeCharge(400_000_000, 250, 60)).toBe(600_000_000);
  });

  it('rounds half a centavo up, where floating point would round it down', () => {
    // 3,000 × 0.0045 × 3 = 40.5 exactly, but 3000 * (45 / 10000) * 3 is 40.49999999999999 in floating point.
    expect(financeCharge(3_000, 45, 3)).toBe(41);
    expect(financeCharge(10, 1_500, 1)).toBe(2); // 1.5
    expect(financeCharge(14_999, 1, 1)).toBe(1); // 1.4999
    expect(financeCharge(1_234_567, 333, 59)).toBe(2_425_554); // 2,425,553.7849
  });

  it('charges nothing at 0 %', () => {
    expect(financeCharge(8_000_000, 0, 12)).toBe(0);
  });

  it('refuses amounts, rates and terms that are not whole and non-negative', () => {
    expect(() => financeCharge(100.5, 250, 12)).toThrow(RangeError);
    expect(() => financeCharge(-1, 250, 12)).toThrow(RangeError);
    expect(() => financeCharge(8_000_000, 2.5, 12)).toThrow(RangeError);
    expect(() => financeCharge(8_000_000, 250, 0)).toThrow(RangeError);
  });
});

describe('instalments', () => {
  it('pays ₱8,666.66 a month on ₱80,000 at 2.5 % over 12 months, the last ₱8,666.74', () => {
    expect(totalRepayable(8_000_000, 250, 12)).toBe(10_400_000);
    expect(monthlyPayment(8_000_000, 250, 12)).toBe(866_666);
    expect(instalmentAmounts(8_000_000, 250, 12)).toEqual([...Array<number>(11).fill(866_666), 866_674]);
  });

  it('pays ₱183,333.33 a month on ₱4,000,000 at 2.5 % over 48 months, the last ₱183,333.49', () => {
    // 4,000,000 + 4,000,000 × 0.025 × 48 = 8,800,000; / 48 = 183,333.333…
    expect(monthlyPayment(400_000_000, 250, 48)).toBe(18_333_333);
    expect(instalmentAmounts(400_000_000, 250, 48).at(-1)).toBe(18_333_349);
  });
});

describe('payment schedule (spec §3 and §9)', () => {
  it('splits ₱80,000 at 2.5 % over 12 months into ₱6,666.66 principal and ₱2,000.00 interest a month', () => {
    const schedule = paymentSchedule(defaultLoan);
    expect(schedule).toHaveLength(12);
    expect(schedule[0]).toEqual({
      month: 1,
      dueDate: '2026-05-15',
      amountCentavos: 866_666,
      principalCentavos: 666_666,
      interestCentavos: 200_000,
      status: 'pending',
    });
    expect(schedule[11]).toEqual({
      month: 12,
      dueDate: '2027-04-15',
      amountCentavos: 866_674,
      principalCentavos: 666_674,
      interestCentavos: 200_000,
      status: 'pending',
    });
  });

  it('spreads an uneven finance charge a centavo at a time', () => {
    // ₱123.45 at 2.5 % over 6 months: charge 18.5175 → 1,852 centavos; total 14,197; 2,366 a month, last 2,367.
    // Interest accrued by month k is floor(1852·k/6): 308, 617, 926, 1234, 1543, 1852.
    const schedule = paymentSchedule({ principalCentavos: 12_345, monthlyRateBps: 250, termMonths: 6, startsOn: '2026-03-15T02:00:00Z' });
    expect(schedule.map((row) => row.amountCentavos)).toEqual([2366, 2366, 2366, 2366, 2366, 2367]);
    expect(schedule.map((row) => row.interestCentavos)).toEqual([308, 309, 309, 308, 309, 309]);
    expect(schedule.map((row) => row.principalCentavos)).toEqual([2058, 2057, 2057, 2058, 2057, 2058]);
  });

  it('makes the first payment due two months after disbursement, then monthly', () => {
    const dueDates = paymentSchedule({ ...defaultLoan, termMonths: 6 }).map((row) => row.dueDate);
    expect(dueDates).toEqual(['2026-05-15', '2026-06-15', '2026-07-15', '2026-08-15', '2026-09-15', '2026-10-15']);
  });

  it('keeps a loan disbursed on 31 January on month ends: 31 March, 30 April, 31 May …', () => {
    const dueDates = paymentSchedule({ ...defaultLoan, startsOn: '2026-01-31T10:00:00+08:00' }).map((row) => row.dueDate);
    expect(dueDates.slice(0, 4)).toEqual(['2026-03-31', '2026-04-30', '2026-05-31', '2026-06-30']);
    expect(dueDates.at(-1)).toBe('2027-02-28');
  });

  it('dates by the Manila calendar: late evening UTC on 31 January is already 1 February', () => {
    const dueDates = paymentSchedule({ ...defaultLoan, startsOn: '2026-01-31T16:30:00Z' }).map((row) => row.dueDate);
    expect(dueDates.slice(0, 2)).toEqual(['2026-04-01', '2026-05-01']);
  });

  it('counts from a business date as from the instant of that Manila day', () => {
    expect(paymentSchedule({ ...defaultLoan, startsOn: '2026-01-31' }).map((row) => row.dueDate)).toEqual(paymentSchedule({ ...defaultLoan, startsOn: '2026-01-31T10:00:00+08:00' }).map((row) => row.dueDate));
  });

  it('falls on 29 February in a leap year', () => {
    const dueDates = paymentSchedule({ ...defaultLoan, startsOn: '2027-12-31T09:00:00+08:00' }).map((row) => row.dueDate);
    expect(dueDates.slice(0, 2)).toEqual(['2028-02-29', '2028-03-31']);
  });

  it('refuses a principal too small to spread over the term', () => {
    expect(() => paymentSchedule({ ...defaultLoan, principalCentavos: 11 })).toThrow(RangeError);
  });
});

describe('Truth in Lending disclosure (RA 3765)', () => {
  it('shows the 2.5 % flat loan of ₱80,000 over 12 months costs 54.05 % a year', () => {
    // Effective rate solved independently with exact rational bisection on the same cash flows
    // (11 × 866,666 then 866,674 centavos at months 2…13): r = 0.036666703 a month.
    const disclosure = truthInLending(defaultLoan);
    expect(disclosure).toMatchObject({
      principalCentavos: 8_000_000,
      financeChargeCentavos: 2_400_000,
      totalRepayableCentavos: 10_400_000,
      monthlyPaymentCentavos: 866_666,
      finalPaymentCentavos: 866_674,
      nominalMonthlyRatePercent: 2.5,
      effectiveMonthlyRatePercent: 3.67,
      effectiveAnnualRatePercent: 54.05,
    });
    expect(disclosure.effectiveMonthlyRate).toBeCloseTo(0.036666703, 9);
    expect(disclosure.effectiveAnnualRate).toBeGreaterThan(0.3);
  });

  it('shows ₱4,000,000 at 2.5 % over 48 months costs 53.24 % a year, and at 10 % over 60 months 232.45 %', () => {
    expect(truthInLending({ ...defaultLoan, principalCentavos: 400_000_000, termMonths: 48 })).toMatchObject({
      effectiveMonthlyRatePercent: 3.62,
      effectiveAnnualRatePercent: 53.24,
    });
    expect(truthInLending({ ...defaultLoan, principalCentavos: 400_000_000, monthlyRateBps: 1_000, termMonths: 60 })).toMatchObject({
      effectiveMonthlyRatePercent: 10.53,
      effectiveAnnualRatePercent: 232.45,
    });
  });

  it('shows an interest-free loan as 0 %', () => {
    expect(truthInLending({ ...defaultLoan, monthlyRateBps: 0 })).toMatchObject({
      financeChargeCentavos: 0,
      totalRepayableCentavos: 8_000_000,
      effectiveMonthlyRate: 0,
      effectiveAnnualRate: 0,
      effectiveAnnualRatePercent: 0,
    });
  });
});
