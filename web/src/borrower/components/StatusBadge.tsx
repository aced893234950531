import { statusLabel } from '../../shared/money';

const TONES: Record<string, string> = {
  approved: 'good',
  active: 'good',
  completed: 'good',
  pending: 'wait',
  account_issue: 'warn',
  denied: 'bad',
  rejected: 'bad',
};

/** A loan or withdrawal status as a coloured pill ('account_issue' reads "Account issue"). */
export function StatusBadge({ status }: { status: string }) {
  return <span className={`status-badge status-badge--${TONES[status] ?? 'other'}`}>{statusLabel(status)}</span>;
}
