import type { LoanAnswer } from '@honeylend/contracts';
import { formatDate, formatPesoAmount } from '../../shared/money';
import { StatusBadge } from '../components/StatusBadge';

/** A paid instalment whose payment was not its amount and late charge (a payoff left its interest unpaid): what was paid is shown. */
const paidDiffers = (row: LoanAnswer['schedule'][number]) => Math.round(row.paid * 100) !== Math.round((row.amount + row.penalty) * 100);

/**
 * The loan's instalments: each one's amount with what was paid and any late charge under it, and
 * where it stands (paid, due, overdue with its days…). Four narrow columns, so it reads at 360 px.
 */
export function ScheduleTable({ schedule, label = 'Payment schedule table' }: { schedule: LoanAnswer['schedule']; label?: string }) {
  const sum = (pick: (row: LoanAnswer['schedule'][number]) => number) => schedule.reduce((total, row) => total + Math.round(pick(row) * 100), 0) / 100;
  const waived = sum((row) => row.interestWaived);
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-label={label}>
      <table className="table schedule-table">
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">Due date</th>
            <th scope="col" className="table__number">
              Amount
            </th>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          {schedule.map((row) => (
            <tr key={row.number} data-testid={`instalment-${row.number}`}>
              <td>{row.number}</td>
              <td className="schedule-table__date">{formatDate(row.dueDate)}</td>
              <td className="table__number">
                {formatPesoAmount(row.amount)}
                {row.penalty > 0 && <span className="schedule-table__note">+ late charge {formatPesoAmount(row.penalty)}</span>}
                {row.paid > 0 && (row.status !== 'paid' || paidDiffers(row)) && <span className="schedule-table__note">paid {formatPesoAmount(row.paid)}</span>}
                {row.interestWaived > 0 && <span className="schedule-table__note">interest waived at payoff {formatPesoAmount(row.interestWaived)}</span>}
              </td>
              <td>
                <StatusBadge status={row.status} />
                {row.daysPastDue > 0 && <span className="schedule-table__late"> {row.daysPastDue} d</span>}
              </td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" colSpan={2}>
              Total
            </th>
            <td className="table__number">{formatPesoAmount(sum((row) => row.amount))}</td>
            <td className="schedule-table__note">
              paid {formatPesoAmount(sum((row) => row.paid))}
              {waived > 0 && <> · interest waived {formatPesoAmount(waived)}</>}
            </td>
          </tr>
        </tfoot>
      </table>
    </div>
  );
}
