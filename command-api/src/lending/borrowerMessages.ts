import { UNDER_REVIEW_MESSAGE } from '@honeylend/contracts';

export { UNDER_REVIEW_MESSAGE };

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
