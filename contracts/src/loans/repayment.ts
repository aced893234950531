import type { Centavos } from '../money.js';
import { annualRateOf, monthlyInternalRateOfReturn, type CashFlow } from './effectiveRate.js';
import { BASIS_POINTS_PER_UNIT } from './loanRules.js';
import { addCalendarMonths, formatCalendarDate, manilaDateOf } from './manilaCalendar.js';

export interface LoanTerms {
  principalCentavos: Centavos;
  /** Flat interest per month in basis points (250 = 2.5 %). */
  monthlyRateBps: number;
  termMonths: number;
}

export interface DatedLoanTerms extends LoanTerms {
  /**
   * The day the money reaches the borrower, from which the due dates count: a business date
   * (YYYY-MM-DD, Asia/Manila), or an ISO instant read as its Manila calendar date.
   */
  startsOn: string;
}

export interface PaymentScheduleRow {
  /** 1-based */
  month: number;
  /** YYYY-MM-DD, Asia/Manila calendar date */
  dueDate: string;
  amountCentavos: Centavos;
  principalCentavos: Centavos;
  interestCentavos: Centavos;
  status: 'pending';
}

/**
 * The spec's §9 schedule starts two months after the loan is made: month 1 is paid at month 2. A loan
 * is made when its money reaches the borrower (disbursement), not when it was applied for: counted
 * from the application, a loan approved months later would be overdue before it was paid out.
 */
export const FIRST_PAYMENT_MONTHS_AFTER_DISBURSEMENT = 2;

function assertLoanTerms(principalCentavos: number, monthlyRateBps: number, termMonths: number): void {
  if (!Number.isSafeInteger(principalCentavos) || principalCentavos < 0) throw new RangeError(`principal must be a non-negative whole number of centavos: ${principalCentavos}`);
  if (!Number.isSafeInteger(monthlyRateBps) || monthlyRateBps < 0) throw new RangeError(`monthly rate must be a non-negative whole number of basis points: ${monthlyRateBps}`);
  if (!Number.isSafeInteger(termMonths) || termMonths < 1) throw new RangeError(`term must be a positive whole number of months: ${termMonths}`);
}

/** principal × rate × term, rounded half up to the centavo; BigInt so no product ever loses a digit. */
export function financeCharge(principalCentavos: Centavos, monthlyRateBps: number, termMonths: number): Centavos {
  assertLoanTerms(principalCentavos, monthlyRateBps, termMonths);
  const exactTimesBasisPoints = BigInt(principalCentavos) * BigInt(monthlyRateBps) * BigInt(termMonths);
  const divisor = BigInt(BASIS_POINTS_PER_UNIT);
  // floor(x / d + 1/2) = floor((2x + d) / 2d), and BigInt division floors for non-negative operands.
  const rounded = (2n * exactTimesBasisPoints + divisor) / (2n * divisor);
  if (rounded > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError('finance charge exceeds the safe integer range');
  return Number(rounded);
}

export function totalRepayable(principalCentavos: Centavos, monthlyRateBps: number, termMonths: number): Centavos {
  const total = principalCentavos + financeCharge(principalCentavos, monthlyRateBps, termMonths);
  if (!Number.isSafeInteger(total)) throw new RangeError('total repayable exceeds the safe integer range');
  return total;
}

/** The regular instalment: the total repayable divided by the term, rounded down; the final one may be larger. */
export function monthlyPayment(principalCentavos: Centavos, monthlyRateBps: number, termMonths: number): Centavos {
  return Math.floor(totalRepayable(principalCentavos, monthlyRateBps, termMonths) / termMonths);
}

/**
 * Instalment amounts in order. Rounding every instalment down and letting the last absorb the rest
 * makes the sum exact and keeps the last within `termMonths - 1` centavos of the others.
 */
export function instalmentAmounts(principalCentavos: Centavos, monthlyRateBps: number, termMonths: number): Centavos[] {
  const total = totalRepayable(principalCentavos, monthlyRateBps, termMonths);
  const regular = Math.floor(total / termMonths);
  return Array.from({ length: termMonths }, (_, index) => (index === termMonths - 1 ? total - regular * (termMonths - 1) : regular));
}

/**
 * Flat interest accrues evenly, so instalments 1…k together carry floor(F·k/term) of the
 * finance charge F: monthly parts differ by at most a centavo and add up to F exactly. The principal
 * part is the rest of the instalment; it cannot go negative while the principal is at least one
 * centavo per month.
 */
function interestAccruedBy(financeChargeCentavos: Centavos, termMonths: number): (month: number) => Centavos {
  const charge = BigInt(financeChargeCentavos);
  const term = BigInt(termMonths);
  return (month) => Number((charge * BigInt(month)) / term);
}

function assertSpreadable(principalCentavos: Centavos, termMonths: number): void {
  if (Number.isSafeInteger(principalCentavos) && Number.isSafeInteger(termMonths) && principalCentavos < termMonths)
    throw new RangeError(`principal of ${principalCentavos} centavos cannot be spread over ${termMonths} months`);
}

/** One row per month, the first due two months after disbursement, then monthly (spec §9). */
export function paymentSchedule({ principalCentavos, monthlyRateBps, termMonths, startsOn }: DatedLoanTerms): PaymentScheduleRow[] {
  assertSpreadable(principalCentavos, termMonths);
  const amounts = instalmentAmounts(principalCentavos, monthlyRateBps, termMonths);
  const interestAccrued = interestAccruedBy(financeCharge(principalCentavos, monthlyRateBps, termMonths), termMonths);
  const start = manilaDateOf(startsOn);
  return amounts.map((amountCentavos, index) => {
    const interestCentavos = interestAccrued(index + 1) - interestAccrued(index);
    return {
      month: index + 1,
      dueDate: formatCalendarDate(addCalendarMonths(start, FIRST_PAYMENT_MONTHS_AFTER_DISBURSEMENT + index)),
      amountCentavos,
      principalCentavos: amountCentavos - interestCentavos,
      interestCentavos,
      status: 'pending',
    };
  });
}

/** The schedule's payments as the lender receives them, timed in whole months from disbursement. */
export function scheduleCashFlows(schedule: readonly Pick<PaymentScheduleRow, 'month' | 'amountCentavos'>[]): CashFlow[] {
  return schedule.map(({ month, amountCentavos }) => ({
    monthsFromStart: month + FIRST_PAYMENT_MONTHS_AFTER_DISBURSEMENT - 1,
    amount: amountCentavos,
  }));
}

/** The Truth in Lending Act (RA 3765) disclosure: what the loan costs, and its true rate. */
export interface TruthInLendingDisclosure {
  principalCentavos: Centavos;
  financeChargeCentavos: Centavos;
  totalRepayableCentavos: Centavos;
  /** The regular instalment; the final one may be up to `termMonths - 1` centavos larger. */
  monthlyPaymentCentavos: Centavos;
  finalPaymentCentavos: Centavos;
  /** The advertised flat rate: 2.5 for 250 bps. */
  nominalMonthlyRatePercent: number;
  /** Internal rate of return of the actual schedule, rounded to 2 decimals for display. */
  effectiveMonthlyRatePercent: number;
  /** (1 + monthly)^12 − 1, rounded to 2 decimals for display. */
  effectiveAnnualRatePercent: number;
  /** Unrounded fractions (0.0431 = 4.31 %) for anything that computes further. */
  effectiveMonthlyRate: number;
  effectiveAnnualRate: number;
}

const percentForDisplay = (fraction: number) => Math.round(fraction * 100 * 100) / 100;

/**
 * A flat rate charges interest on the full principal for the whole term although the borrower repays
 * it month by month, so the true cost is far above the advertised rate; the disclosure states both.
 * The payments are timed in months from disbursement, so the rates do not depend on its date.
 */
export function truthInLending(terms: LoanTerms): TruthInLendingDisclosure {
  const { principalCentavos, monthlyRateBps, termMonths } = terms;
  assertSpreadable(principalCentavos, termMonths);
  const payments = instalmentAmounts(principalCentavos, monthlyRateBps, termMonths).map((amountCentavos, index) => ({ month: index + 1, amountCentavos }));
  const effectiveMonthlyRate = monthlyInternalRateOfReturn(principalCentavos, scheduleCashFlows(payments));
  const effectiveAnnualRate = annualRateOf(effectiveMonthlyRate);
  const totalRepayableCentavos = totalRepayable(principalCentavos, monthlyRateBps, termMonths);
  const monthlyPaymentCentavos = monthlyPayment(principalCentavos, monthlyRateBps, termMonths);
  return {
    principalCentavos,
    financeChargeCentavos: financeCharge(principalCentavos, monthlyRateBps, termMonths),
    totalRepayableCentavos,
    monthlyPaymentCentavos,
    finalPaymentCentavos: totalRepayableCentavos - monthlyPaymentCentavos * (termMonths - 1),
    nominalMonthlyRatePercent: monthlyRateBps / 100,
    effectiveMonthlyRatePercent: percentForDisplay(effectiveMonthlyRate),
    effectiveAnnualRatePercent: percentForDisplay(effectiveAnnualRate),
    effectiveMonthlyRate,
    effectiveAnnualRate,
  };
}
