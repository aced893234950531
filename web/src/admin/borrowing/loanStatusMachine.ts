/**
 * The loan status machine the API enforces (command-api/src/loan/loanStatus.ts), so the status
 * dialog offers only the moves the server will accept. The server stays the judge: a move it
 * refuses comes back as a 409 and is shown as 'Update failed'.
 *
 *   pending ──▶ approved ──▶ active ──▶ completed
 *   pending / account_issue ──▶ denied; account_issue ──▶ pending or approved
 *   a loan under review (pending, account_issue, custom) may enter any custom status
 */
export const BUILT_IN_LOAN_STATUSES = ['pending', 'approved', 'denied', 'account_issue', 'active', 'completed'] as const;
type BuiltIn = (typeof BUILT_IN_LOAN_STATUSES)[number];

const NEXT: Record<BuiltIn, readonly BuiltIn[]> = {
  pending: ['approved', 'denied', 'account_issue'],
  account_issue: ['pending', 'approved', 'denied'],
  approved: ['active'],
  active: ['completed'],
  denied: [],
  completed: [],
};

function isBuiltIn(status: string): status is BuiltIn {
  return (BUILT_IN_LOAN_STATUSES as readonly string[]).includes(status);
}

export function isUnderReview(status: string): boolean {
  return status === 'pending' || status === 'account_issue' || !isBuiltIn(status);
}

/** The statuses a loan in `from` may be set to, built-in first, then the custom review steps. */
export function nextLoanStatuses(from: string, customStatuses: readonly string[]): string[] {
  const builtIn = isBuiltIn(from) ? [...NEXT[from]] : ['pending', ...NEXT.pending];
  const custom = isUnderReview(from) ? customStatuses.filter((status) => status !== from && !isBuiltIn(status)) : [];
  return [...builtIn, ...custom];
}

/** Spec §4: only pending and denied applications may be deleted. */
export function isDeletable(status: string): boolean {
  return status === 'pending' || status === 'denied';
}

export const LOAN_STATUS_COLOURS: Record<string, string> = {
  pending: 'gold',
  approved: 'green',
  active: 'blue',
  completed: 'default',
  denied: 'red',
  rejected: 'red',
  account_issue: 'orange',
};
