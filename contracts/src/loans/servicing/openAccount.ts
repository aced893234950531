import type { EventData } from '../../events.js';
import { paymentSchedule } from '../repayment.js';
import type { BusinessDate } from './businessDate.js';

/** Spec §9: late charge 2 % a month; charged from the day after the grace days past the due date. */
export const DEFAULT_LATE_CHARGE_MONTHLY_BPS = 200;
export const DEFAULT_LATE_CHARGE_GRACE_DAYS = 3;

export interface LateChargeSettings {
  monthlyBps: number;
  graceDays: number;
}

export const DEFAULT_LATE_CHARGE_SETTINGS: LateChargeSettings = { monthlyBps: DEFAULT_LATE_CHARGE_MONTHLY_BPS, graceDays: DEFAULT_LATE_CHARGE_GRACE_DAYS };

/**
 * The account disbursement opens: the spec §9 schedule of the loan as applied for (first due two
 * months after the application, then monthly), and the late-charge terms in force that day, fixed
 * for the loan's life.
 */
export function accountOpening(
  loan: { loanId: string; memberId: string; principalCentavos: number; monthlyRateBps: number; termMonths: number; appliedAt: string },
  lateCharge: LateChargeSettings,
  businessDate: BusinessDate,
  openedAt: string,
): EventData<'LoanAccountOpened'> {
  const schedule = paymentSchedule({ principalCentavos: loan.principalCentavos, monthlyRateBps: loan.monthlyRateBps, termMonths: loan.termMonths, createdAt: loan.appliedAt });
  return {
    loanId: loan.loanId,
    memberId: loan.memberId,
    principalCentavos: loan.principalCentavos,
    monthlyRateBps: loan.monthlyRateBps,
    termMonths: loan.termMonths,
    lateChargeMonthlyBps: lateCharge.monthlyBps,
    lateChargeGraceDays: lateCharge.graceDays,
    schedule: schedule.map((row) => ({
      number: row.month,
      dueDate: row.dueDate,
      principalCentavos: row.principalCentavos,
      interestCentavos: row.interestCentavos,
      amountCentavos: row.amountCentavos,
    })),
    businessDate,
    openedAt,
  };
}
