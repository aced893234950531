/**
 * The rules a borrower's screens need about their applications (which statuses exist, which are
 * still under review, which close the application, which may be cancelled), apart from the status
 * machine (loanStatusRules.ts) so the borrower app's first load carries only these few lines. The
 * API decides with the very same functions.
 */
export const BUILT_IN_LOAN_STATUSES = ['pending', 'approved', 'denied', 'account_issue', 'active', 'completed', 'lapsed', 'cancelled'] as const;
export type BuiltInLoanStatus = (typeof BUILT_IN_LOAN_STATUSES)[number];

export function isBuiltInLoanStatus(status: string): status is BuiltInLoanStatus {
  return (BUILT_IN_LOAN_STATUSES as readonly string[]).includes(status);
}

/** Pending, account_issue and every custom status: the loan is still being reviewed. */
export function isUnderReview(status: string): boolean {
  return status === 'pending' || status === 'account_issue' || !isBuiltInLoanStatus(status);
}

/** Denial, completion, a lapsed approval and the borrower's cancellation end the application: the member may apply again. */
export function closesApplication(status: string): status is 'denied' | 'completed' | 'lapsed' | 'cancelled' {
  return status === 'denied' || status === 'completed' || status === 'lapsed' || status === 'cancelled';
}

/**
 * "May apply again": every application the member has is closed. The one rule for the server
 * (the member's stream: each application's closing, or its status while open) and the borrower
 * app (their loans' statuses), so the Quick loan button is offered exactly when the API takes it.
 * A deleted application (its closing `deleted`) is gone and counts as closed.
 */
export function mayApplyAgain(statuses: Iterable<string>): boolean {
  for (const status of statuses) if (status !== 'deleted' && !closesApplication(status)) return false;
  return true;
}

/** Whether a loan still blocks a new application (the negation of `closesApplication`, for one loan). */
export function isOpenApplication(status: string): boolean {
  return !mayApplyAgain([status]);
}

/** The borrower may cancel their application only while it is under review: never once it was approved or closed. */
export function isCancellable(status: string): boolean {
  return isUnderReview(status) && status !== 'cancelled';
}
