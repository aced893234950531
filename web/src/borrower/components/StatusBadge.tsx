import { statusLabel } from '../../shared/money';

const TONES: Record<string, string> = {
  approved: 'good',
  active: 'good',
  completed: 'good',
  pending: 'wait',
  account_issue: 'warn',
  denied: 'bad',
  lapsed: 'bad',
  cancelled: 'other',
  rejected: 'bad',
  // Instalments (the payment schedule).
  paid: 'good',
  due: 'wait',
  partially_paid: 'warn',
  overdue: 'bad',
};

/** A loan, withdrawal or instalment status as a coloured pill ('account_issue' reads "Account issue"). */
export function StatusBadge({ status }: { status: string }) {
  return <span className={`status-badge status-badge--${TONES[status] ?? 'other'}`}>{statusLabel(status)}</span>;
}
