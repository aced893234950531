/**
 * What a loan's status says to its borrower. Advance-fee fraud ("your loan is approved, pay a
 * release fee first") is the classic harm of lending apps, so no message attached to a status
 * may ask the borrower to pay, deposit or transfer money: Honeylend never asks for money to
 * process, approve or release a loan. Repayment reminders go out as ordinary notifications.
 */
const MONEY_REQUESTS: RegExp[] = [
  /\b(pay|pays|paying|payment|payments|deposit|deposits|fee|fees|remit|remittance|cash[- ]?in)\b/i,
  /\b(send|transfer|wire)\b[^.!?]*\b(money|funds|amount|gcash|maya|peso|pesos|php)\b/i,
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
      return `Your loan ${loanNumber} has been approved. The amount is now in your wallet.`;
    case 'denied':
      return `Your loan application ${loanNumber} was not approved. You may apply again.`;
    case 'active':
      return `Your loan ${loanNumber} is now active. Your repayment schedule is in the app.`;
    case 'completed':
      return `Your loan ${loanNumber} is complete. Thank you for borrowing with Honeylend.`;
    default:
      return `Your loan application ${loanNumber} is now: ${status.replaceAll('_', ' ')}.`;
  }
}

export function defaultStatusTitle(loanNumber: string): string {
  return `Loan ${loanNumber} update`;
}
