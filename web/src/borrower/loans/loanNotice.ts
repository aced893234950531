import { UNDER_REVIEW_MESSAGE, type LoanAnswer, type NotificationAnswer } from '@honeylend/contracts';

export { UNDER_REVIEW_MESSAGE };

/** What a status means for the borrower when nobody wrote anything about it. */
export function defaultLoanMessage(status: string): string {
  switch (status) {
    case 'pending':
      return UNDER_REVIEW_MESSAGE;
    case 'account_issue':
      return 'There is an issue with your application: the notice from our staff says what to fix.';
    case 'approved':
      return 'Approved. Read and accept its Disclosure Statement; the amount reaches your wallet once you do.';
    case 'active':
      return 'Your loan is active. Your repayment schedule is in the app.';
    case 'completed':
      return 'This loan is paid off. Thank you for borrowing with Honeylend.';
    case 'denied':
      return 'This application was not approved. You may apply again.';
    case 'lapsed':
      return 'This approval lapsed: its Disclosure Statement was not accepted in time. You may apply again.';
    case 'cancelled':
      return 'You cancelled this application. You may apply again.';
    default:
      return UNDER_REVIEW_MESSAGE;
  }
}

/**
 * The loan's own latest notice (issue 17, item 5): the newest loan notification that names this
 * loan, when it is no older than the loan's last change; else the message recorded with its status;
 * else what its status means. A withdrawal's (or another loan's) notification is never it.
 */
export function loanNotice(loan: LoanAnswer, notifications: readonly NotificationAnswer[]): string {
  const own = notifications
    .filter((notice) => notice.type === 'loan_update' && (notice.title.includes(loan.loanNumber) || notice.message.includes(loan.loanNumber)))
    .sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1))[0];
  if (own && own.createdAt >= loan.updatedAt) return own.message;
  return loan.statusMessage ?? defaultLoanMessage(loan.status);
}
