import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { presentValue } from './effectiveRate.js';
import { ADMIN_LOAN_TERM_MAX_MONTHS, LOAN_AMOUNT_MAX_CENTAVOS, LOAN_AMOUNT_MIN_CENTAVOS, LOAN_AMOUNT_STEP_CENTAVOS, LOAN_TERM_MIN_MONTHS } from './loanRules.js';
import { financeCharge, paymentSchedule, scheduleCashFlows, truthInLending, type PaymentScheduleRow } from './repayment.js';

const amountSteps = (LOAN_AMOUNT_MAX_CENTAVOS - LOAN_AMOUNT_MIN_CENTAVOS) / LOAN_AMOUNT_STEP_CENTAVOS;
const everyAmount = Array.from({ length: amountSteps + 1 }, (_, step) => LOAN_AMOUNT_MIN_CENTAVOS + step * LOAN_AMOUNT_STEP_CENTAVOS);
const everyTerm = Array.from({ length: ADMIN_LOAN_TERM_MAX_MONTHS - LOAN_TERM_MIN_MONTHS + 1 }, (_, index) => LOAN_TERM_MIN_MONTHS + index);

const principalArbitrary = fc.integer({ min: 0, max: amountSteps }).map((step) => LOAN_AMOUNT_MIN_CENTAVOS + step * LOAN_AMOUNT_STEP_CENTAVOS);
const termArbitrary = fc.integer({ min: LOAN_TERM_MIN_MONTHS, max: ADMIN_LOAN_TERM_MAX_MONTHS });
const rateArbitrary = fc.integer({ min: 0, max: 1_000 });
const startsOnArbitrary = fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:59Z'), noInvalidDate: true }).map((date) => date.toISOString());
const loanArbitrary = fc.record({
  principalCentavos: principalArbitrary,
  monthlyRateBps: rateArbitrary,
  termMonths: termArbitrary,
  startsOn: startsOnArbitrary,
});

const sumOf = (rows: readonly PaymentScheduleRow[], pick: (row: PaymentScheduleRow) => number) => rows.reduce((total, row) => total + pick(row), 0);

/**
 * The invariants every schedule keeps, checked from first principles rather than with the code under
 * test; answers the broken ones so a failure says what went wrong (one `expect` per schedule keeps the
 * exhaustive sweep fast).
 */
function scheduleViolations(principalCentavos: number, monthlyRateBps: number, termMonths: number, schedule: PaymentScheduleRow[]): string[] {
  const violations: string[] = [];
  const check = (holds: boolean, rule: string) => {
    if (!holds) violations.push(rule);
  };
  const charge = financeCharge(principalCentavos, monthlyRateBps, termMonths);
  // charge = round(P·rate·term) to the nearest centavo, halves up: 10,000·charge is within 5,000 of P·bps·term, on the upper side at ties.
  const scaledDifference = BigInt(charge) * 10_000n - BigInt(principalCentavos) * BigInt(monthlyRateBps) * BigInt(termMonths);
  check(scaledDifference > -5_000n && scaledDifference <= 5_000n, `finance charge ${charge} is not P·rate·term rounded half up`);

  check(schedule.length === termMonths, `${schedule.length} rows for ${termMonths} months`);
  check(
    schedule.every((row, index) => row.month === index + 1),
    'months are not numbered 1…term',
  );
  check(sumOf(schedule, (row) => row.amountCentavos) === principalCentavos + charge, 'instalments do not add up to principal + finance charge');
  check(sumOf(schedule, (row) => row.principalCentavos) === principalCentavos, 'principal parts do not add up to the principal');
  check(sumOf(schedule, (row) => row.interestCentavos) === charge, 'interest parts do not add up to the finance charge');

  for (const row of schedule) {
    const parts = `month ${row.month}: ${row.principalCentavos} + ${row.interestCentavos} = ${row.amountCentavos}`;
    check([row.amountCentavos, row.principalCentavos, row.interestCentavos].every(Number.isSafeInteger), `${parts} are not whole centavos`);
    check(row.principalCentavos >= 0 && row.interestCentavos >= 0, `${parts} has a negative part`);
    check(row.principalCentavos + row.interestCentavos === row.amountCentavos, `${parts} does not add up`);
    check(row.status === 'pending', `month ${row.month} is not pending`);
  }
  const regular = schedule[0]?.amountCentavos ?? Number.NaN;
  const last = schedule[schedule.length - 1]?.amountCentavos ?? Number.NaN;
  check(regular >= 0, 'the regular instalment is negative');
  check(
    schedule.slice(0, -1).every((row) => row.amountCentavos === regular),
    'the instalments before the last differ',
  );
  check(last - regular >= 0 && last - regular < termMonths, `the last instalment ${last} is not within ${termMonths} centavos above ${regular}`);
  return violations;
}

describe('payment schedule properties', () => {
  it('adds up exactly for every amount on the ₱10,000 step and every term from 6 to 60 months at 2.5 %', () => {
    for (const principalCentavos of everyAmount) {
      for (const termMonths of everyTerm) {
        const schedule = paymentSchedule({ principalCentavos, monthlyRateBps: 250, termMonths, startsOn: '2026-01-31T00:00:00Z' });
        const violations = scheduleViolations(principalCentavos, 250, termMonths, schedule);
        if (violations.length) expect({ principalCentavos, termMonths, violations }).toEqual({ principalCentavos, termMonths, violations: [] });
      }
    }
    expect(everyAmount).toHaveLength(393);
    expect(everyTerm).toHaveLength(55);
  });

  it('adds up exactly for any amount, term and rate from 0 to 1,000 basis points', () => {
    fc.assert(
      fc.property(loanArbitrary, (loan) => {
        expect(scheduleViolations(loan.principalCentavos, loan.monthlyRateBps, loan.termMonths, paymentSchedule(loan))).toEqual([]);
      }),
      { numRuns: 2_000 },
    );
  });

  it('adds up for principals off the step too, down to one centavo a month', () => {
    fc.assert(
      fc.property(termArbitrary, rateArbitrary, fc.integer({ min: 0, max: LOAN_AMOUNT_MAX_CENTAVOS }), startsOnArbitrary, (termMonths, monthlyRateBps, extra, startsOn) => {
        const principalCentavos = termMonths + extra;
        expect(scheduleViolations(principalCentavos, monthlyRateBps, termMonths, paymentSchedule({ principalCentavos, monthlyRateBps, termMonths, startsOn }))).toEqual([]);
      }),
      { numRuns: 2_000 },
    );
  });

  it('dates the first payment two Manila calendar months after disbursement, then monthly on the same day or the month end', () => {
    fc.assert(
      fc.property(loanArbitrary, (loan) => {
        const dueDates = paymentSchedule(loan).map((row) => row.dueDate);
        // Worked out with Date's own month arithmetic instead of the calendar module under test.
        const manilaStart = new Date(Date.parse(loan.startsOn) + 8 * 3_600_000);
        const [year, monthIndex, day] = [manilaStart.getUTCFullYear(), manilaStart.getUTCMonth(), manilaStart.getUTCDate()];
        const expected = Array.from({ length: loan.termMonths }, (_, index) => {
          const dueMonthIndex = monthIndex + 2 + index;
          const lastDayOfDueMonth = new Date(Date.UTC(year, dueMonthIndex + 1, 0)).getUTCDate();
          return new Date(Date.UTC(year, dueMonthIndex, Math.min(day, lastDayOfDueMonth))).toISOString().slice(0, 10);
        });
        expect(dueDates).toEqual(expected);
        expect(dueDates.every((dueDate, index) => index === 0 || dueDate > dueDates[index - 1])).toBe(true);
      }),
      { numRuns: 1_000 },
    );
  });
});

describe('Truth in Lending properties', () => {
  it('finds an effective rate that turns the scheduled payments back into the principal within a centavo', () => {
    fc.assert(
      fc.property(loanArbitrary, (loan) => {
        const disclosure = truthInLending(loan);
        const schedule = paymentSchedule(loan);
        const discounted = schedule.reduce((total, row) => total + row.amountCentavos / (1 + disclosure.effectiveMonthlyRate) ** (row.month + 1), 0);
        expect(Math.abs(discounted - loan.principalCentavos)).toBeLessThanOrEqual(1);
        expect(presentValue(scheduleCashFlows(schedule), disclosure.effectiveMonthlyRate)).toBeCloseTo(discounted, 3);
        expect(disclosure.effectiveAnnualRate).toBeCloseTo((1 + disclosure.effectiveMonthlyRate) ** 12 - 1, 12);
        expect(disclosure.effectiveMonthlyRatePercent).toBe(Math.round(disclosure.effectiveMonthlyRate * 10_000) / 100);
        expect(disclosure.totalRepayableCentavos).toBe(sumOf(schedule, (row) => row.amountCentavos));
        expect(disclosure.financeChargeCentavos).toBe(sumOf(schedule, (row) => row.interestCentavos));
        expect(disclosure.monthlyPaymentCentavos).toBe(schedule[0].amountCentavos);
      }),
      { numRuns: 1_000 },
    );
  });

  it('never shows an effective rate below the advertised flat rate, which understates the cost', () => {
    fc.assert(
      fc.property(loanArbitrary, (loan) => {
        const { effectiveMonthlyRate, effectiveAnnualRate } = truthInLending(loan);
        const flatMonthlyRate = loan.monthlyRateBps / 10_000;
        expect(effectiveMonthlyRate).toBeGreaterThanOrEqual(flatMonthlyRate);
        expect(effectiveAnnualRate).toBeGreaterThanOrEqual(flatMonthlyRate * 12);
      }),
      { numRuns: 1_000 },
    );
  });

  it('shows an interest-free loan at exactly 0 % whatever its amount and term', () => {
    fc.assert(
      fc.property(loanArbitrary, (loan) => {
        const disclosure = truthInLending({ ...loan, monthlyRateBps: 0 });
        expect(disclosure.effectiveMonthlyRate).toBe(0);
        expect(disclosure.effectiveAnnualRate).toBe(0);
        expect(disclosure.financeChargeCentavos).toBe(0);
      }),
      { numRuns: 300 },
    );
  });

  it('charges more, effectively, when the flat rate is higher', () => {
    fc.assert(
      fc.property(loanArbitrary, fc.integer({ min: 1, max: 200 }), (loan, increaseBps) => {
        const lower = truthInLending(loan).effectiveMonthlyRate;
        const higher = truthInLending({ ...loan, monthlyRateBps: loan.monthlyRateBps + increaseBps }).effectiveMonthlyRate;
        expect(higher).toBeGreaterThan(lower);
      }),
      { numRuns: 500 },
    );
  });
});
