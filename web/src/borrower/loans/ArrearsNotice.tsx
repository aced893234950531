import { formatDate, formatPesoAmount } from '../../shared/money';
import type { Arrears } from './arrears';

/**
 * A borrower behind on payments reads this first, in plain words (SEC MC 18: no threats): how much is
 * overdue since when, the late charges so far, and what brings the loan up to date.
 */
export function ArrearsNotice({ arrears }: { arrears: Arrears }) {
  const { overdueAmount, lateCharges, since, daysPastDue, instalments } = arrears;
  return (
    <div className="message message--arrears" data-testid="loan-arrears">
      <p className="message__title">
        {formatPesoAmount(overdueAmount)} overdue since {formatDate(since)}
      </p>
      <p>
        {instalments === 1 ? 'One instalment is' : `${instalments} instalments are late, the oldest`} {daysPastDue} {daysPastDue === 1 ? 'day' : 'days'} past due
        {lateCharges > 0 ? `; late charges so far ${formatPesoAmount(lateCharges)}, included above` : ''}. Paying {formatPesoAmount(overdueAmount)} brings your loan up to date.
      </p>
    </div>
  );
}
