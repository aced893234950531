import type { EventData } from '../../events.js';
import { paymentSchedule, type LoanTerms } from '../repayment.js';
import type { BusinessDate } from './businessDate.js';
import type { ScheduledInstalment } from './loanAccount.js';

/** Spec §9: late charge 2 % a month; charged from the day after the grace days past the due date. */
export const DEFAULT_LATE_CHARGE_MONTHLY_BPS = 200;
export const DEFAULT_LATE_CHARGE_GRACE_DAYS = 3;

export interface LateChargeSettings {
  monthlyBps: number;
  graceDays: number;
}

export const DEFAULT_LATE_CHARGE_SETTINGS: LateChargeSettings = { monthlyBps: DEFAULT_LATE_CHARGE_MONTHLY_BPS, graceDays: DEFAULT_LATE_CHARGE_GRACE_DAYS };

/**
 * The schedule a disbursement on `disbursedOn` fixes (spec §9): the first instalment due two months
 * after the money reached the borrower, then monthly. The Disclosure Statement shown for acceptance
 * is written from this same function, for the business date the acceptance would disburse on.
 */
export function disbursementSchedule(terms: LoanTerms, disbursedOn: BusinessDate): ScheduledInstalment[] {
  return paymentSchedule({ ...terms, startsOn: disbursedOn }).map((row) => ({
    number: row.month,
    dueDate: row.dueDate,
    principalCentavos: row.principalCentavos,
    interestCentavos: row.interestCentavos,
    amountCentavos: row.amountCentavos,
  }));
}

/**
 * The account disbursement opens: the spec §9 schedule counted from `businessDate`, the day of the
 * disbursement, and the late-charge terms in force that day, fixed for the loan's life.
 */
export function accountOpening(
  loan: { loanId: string; memberId: string; principalCentavos: number; monthlyRateBps: number; termMonths: number },
  lateCharge: LateChargeSettings,
  businessDate: BusinessDate,
  openedAt: string,
): EventData<'LoanAccountOpened'> {
  const { loanId, memberId, principalCentavos, monthlyRateBps, termMonths } = loan;
  return {
    loanId,
    memberId,
    principalCentavos,
    monthlyRateBps,
    termMonths,
    lateChargeMonthlyBps: lateCharge.monthlyBps,
    lateChargeGraceDays: lateCharge.graceDays,
    schedule: disbursementSchedule({ principalCentavos, monthlyRateBps, termMonths }, businessDate),
    businessDate,
    openedAt,
  };
}
