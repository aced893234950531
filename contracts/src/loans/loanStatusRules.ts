import { isBuiltInLoanStatus, isUnderReview, type BuiltInLoanStatus } from './applicationRules.js';

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

/** Spec §4: the only statuses from which an application may be deleted. */
export function isDeletable(status: string): boolean {
  return status === 'pending' || status === 'denied';
}
