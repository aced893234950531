/**
 * The share of a member's monthly salary one instalment takes, in whole percent (65 for ₱16,250
 * of ₱25,000), or null without a salary. An admin reviewing an application sees it at once.
 */
export function paymentToIncomePercent(monthlyPayment: number, monthlySalary: number | null): number | null {
  if (monthlySalary === null || !(monthlySalary > 0)) return null;
  return Math.round((monthlyPayment / monthlySalary) * 100);
}

/** Above this share of income, the drawer flags the payment as hard to carry. */
export const PAYMENT_TO_INCOME_WARNING_PERCENT = 40;
