import { DEFAULT_LATE_CHARGE_SETTINGS, lateChargeTerms } from '@honeylend/contracts';

/** Spec §9 terms every contract states, in the Disclosure Statement's own words. */
export const LATE_CHARGE_TEXT = lateChargeTerms(DEFAULT_LATE_CHARGE_SETTINGS);
export const PREPAYMENT_TEXT = 'You may pay early, in part or in full, without penalty.';
/** Spec §9, counted from disbursement: nothing is owed for the time before the borrower has the money. */
export const FIRST_PAYMENT_TEXT = "First payment: two months after the money reaches your wallet (the day you accept the approved loan's Disclosure Statement), then monthly.";
