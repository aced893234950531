/** The tag colour of each built-in loan status; custom review steps show in purple. */
const LOAN_STATUS_COLOURS: Record<string, string> = {
  pending: 'gold',
  approved: 'green',
  active: 'blue',
  completed: 'default',
  denied: 'red',
  account_issue: 'orange',
};

export function loanStatusColour(status: string): string {
  return LOAN_STATUS_COLOURS[status] ?? 'purple';
}
