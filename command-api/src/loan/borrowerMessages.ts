/**
 * What staff may write to a borrower. Advance-fee fraud ("your loan is approved, pay a release
 * fee first") is the classic harm of lending apps, and its sibling is the staff member who asks
 * for the instalment on their own GCash. Now that loans are repaid, staff may write about the
 * loan's own instalments ("your instalment of ₱13,000 is due on 15 May; pay it in the app"), but
 * never: a fee, deposit or charge to unlock, release or process anything; money sent or
 * transferred anywhere; a payment to a number or to somebody's own account. The product's own
 * ways to pay (the wallet, and GCash, Maya, bank or counter payments quoting the loan number)
 * need none of those words.
 */
const MONEY_REQUESTS: RegExp[] = [
  /\b(deposit|deposits|fee|fees|remit|remittance|cash[- ]?in|unlock|unlocking|release charge|processing charge)\b/i,
  /\b(send|sending|transfer|transferring|wire)\b[^.!?]*\b(money|funds|amount|gcash|maya|peso|pesos|php)\b|₱[^.!?]*\b(send|transfer|wire)\b/i,
  /\b(pay|pays|paying|payment|payments)\b[^.!?]*((?<![\w-])\d[\d -]{8,}\d|\b(my|our|his|her|agent'?s?|personal|staff)\s+(own\s+)?(account|gcash|maya|number|wallet)\b)/i,
  /\b(pay|pays|paying|payment|payments)\b[^.!?]*\b(to (approve|release|process|activate)|before (approval|release|disbursement)|for (approval|release|processing))\b/i,
];

/** The words that made a message a request for money, or null when it asks for none. */
export function moneyRequestIn(text: string): string | null {
  for (const pattern of MONEY_REQUESTS) {
    const match = pattern.exec(text);
    if (match) return match[0];
  }
  return null;
}

/** Spec §2 (wallet): what the borrower reads while the application waits. */
export const UNDER_REVIEW_MESSAGE = 'Your loan application is under review. Please contact your loan officer for approval process';

/** The default text sent when an admin asks to notify the borrower without writing one. */
export function defaultStatusMessage(status: string, loanNumber: string): string {
  switch (status) {
    case 'pending':
      return UNDER_REVIEW_MESSAGE;
    case 'approved':
      return `Your loan ${loanNumber} has been approved. Read and accept its Disclosure Statement in the app within 7 days; the amount reaches your wallet once you accept.`;
    case 'denied':
      return `Your loan application ${loanNumber} was not approved. You may apply again.`;
    case 'active':
      return `Your loan ${loanNumber} is now active. Your repayment schedule is in the app.`;
    case 'completed':
      return `Your loan ${loanNumber} is complete. Thank you for borrowing with Honeylend.`;
    case 'lapsed':
      return `The approval of your loan ${loanNumber} lapsed: its Disclosure Statement was not accepted within 7 days. You may apply again.`;
    default:
      return `Your loan application ${loanNumber} is now: ${status.replaceAll('_', ' ')}.`;
  }
}

export function defaultStatusTitle(loanNumber: string): string {
  return `Loan ${loanNumber} update`;
}
