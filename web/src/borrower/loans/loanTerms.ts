/** Spec §9 terms every contract states. */
export const LATE_CHARGE_PERCENT_PER_MONTH = 2;
export const LATE_CHARGE_TEXT = `Late charge: ${LATE_CHARGE_PERCENT_PER_MONTH}% per month on any overdue amount.`;
export const PREPAYMENT_TEXT = 'You may pay early, in part or in full, without penalty.';
/** Spec §9, counted from disbursement: nothing is owed for the time before the borrower has the money. */
export const FIRST_PAYMENT_TEXT = "First payment: two months after the money reaches your wallet (the day you accept the approved loan's Disclosure Statement), then monthly.";
