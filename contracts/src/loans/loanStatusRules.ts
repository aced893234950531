/**
 * The loan status machine (issue 4), shared by the API's loan decider, which enforces it, and the
 * admin console, which offers only the moves the decider will accept. A loan moves forward only:
 *
 *   pending ──▶ approved ══▶ active ══▶ completed
 *      │ ▲         ▲
 *      ▼ │         │
 *   account_issue ─┘        pending / account_issue ──▶ denied
 *
 * The double arrows follow the money, never an admin's click (design §7, §9): disbursement opens
 * the account (`active`, LoanAccountOpened) and only full repayment closes it (`completed`,
 * LoanPaidOff). Admins move a loan along the single arrows only.
 *
 * An approved loan waits for the borrower to accept its Disclosure Statement (RA 3765) before the
 * money moves; an approval not accepted within APPROVAL_ACCEPTANCE_DAYS lapses (`lapsed`, set by
 * time, never by a click) and ends the application.
 *
 * A borrower may cancel their own application while it is still under review (`cancelled`, by
 * the borrower only; never after approval), which ends it like a denial.
 *
 * Admin-defined custom statuses (spec §4) are steps of the review: a loan under review
 * (pending, account_issue or a custom status) may enter any custom status, and leaves one the
 * way a pending loan leaves review. Money moves only on approval, so no custom status can skip it.
 */
export const BUILT_IN_LOAN_STATUSES = ['pending', 'approved', 'denied', 'account_issue', 'active', 'completed', 'lapsed', 'cancelled'] as const;
export type BuiltInLoanStatus = (typeof BUILT_IN_LOAN_STATUSES)[number];

const NEXT_BUILT_IN: Record<BuiltInLoanStatus, readonly BuiltInLoanStatus[]> = {
  pending: ['approved', 'denied', 'account_issue'],
  account_issue: ['pending', 'approved', 'denied'],
  approved: [],
  active: [],
  denied: [],
  completed: [],
  lapsed: [],
  cancelled: [],
};

/** Days the borrower has to accept an approved loan's Disclosure Statement before the approval lapses. */
export const APPROVAL_ACCEPTANCE_DAYS = 7;

/** The instant an approval given at `approvedAt` lapses unless the borrower accepted its terms. */
export function acceptanceDeadline(approvedAt: string): string {
  return new Date(Date.parse(approvedAt) + APPROVAL_ACCEPTANCE_DAYS * 86_400_000).toISOString();
}

export function isBuiltInLoanStatus(status: string): status is BuiltInLoanStatus {
  return (BUILT_IN_LOAN_STATUSES as readonly string[]).includes(status);
}

/** Pending, account_issue and every custom status: the loan is still being reviewed. */
export function isUnderReview(status: string): boolean {
  return status === 'pending' || status === 'account_issue' || !isBuiltInLoanStatus(status);
}

function nextBuiltInStatuses(from: string): readonly BuiltInLoanStatus[] {
  if (isBuiltInLoanStatus(from)) return NEXT_BUILT_IN[from];
  // A custom review step leaves review the way a pending loan does, or goes back to pending.
  return ['pending', ...NEXT_BUILT_IN.pending];
}

/**
 * The statuses a loan in `from` may be set to, built-in first, then the custom review steps in
 * the order given; `customStatuses` are the admin-defined statuses as the settings hold them now.
 */
export function nextLoanStatuses(from: string, customStatuses: readonly string[]): string[] {
  const custom = isUnderReview(from) ? customStatuses.filter((status) => status !== from && !isBuiltInLoanStatus(status)) : [];
  return [...nextBuiltInStatuses(from), ...custom];
}

/** Whether a loan in `from` may be set to `to`; `to` must be built-in or one of `customStatuses`. */
export function canChangeLoanStatus(from: string, to: string, customStatuses: readonly string[]): boolean {
  return nextLoanStatuses(from, customStatuses).includes(to);
}

/** The statuses only the money (or, for a lapse, the borrower's silence) sets: an admin asking for them is refused. */
export const MONEY_SET_LOAN_STATUSES: readonly BuiltInLoanStatus[] = ['active', 'completed', 'lapsed'];

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

/** Spec §4: the only statuses from which an application may be deleted. */
export function isDeletable(status: string): boolean {
  return status === 'pending' || status === 'denied';
}
