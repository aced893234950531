import type { LoanAnswer } from '@honeylend/contracts';
import { formatDate, formatPesoAmount, statusLabel } from '../../shared/money';
import { Dialog } from '../components/Dialog';
import { LATE_CHARGE_TEXT, PREPAYMENT_TEXT } from './loanTerms';

/** Spec §2/§9: one row per month, the first due two months after the loan was made, each pending. */
export function PaymentScheduleDialog({ loan, open, onClose }: { loan: LoanAnswer; open: boolean; onClose: () => void }) {
  const total = loan.schedule.reduce((sum, row) => sum + Math.round(row.amount * 100), 0) / 100;
  return (
    <Dialog
      open={open}
      title="Payment Schedule"
      description={`Loan ${loan.loanNumber} · ${loan.termMonths} monthly payments`}
      onClose={onClose}
      wide
      closeButton
      actions={
        <button type="button" className="button button--primary" onClick={onClose}>
          Close
        </button>
      }
    >
      <div className="table-scroll" tabIndex={0} role="region" aria-label="Payment schedule table">
        <table className="table">
          <thead>
            <tr>
              <th scope="col">Month</th>
              <th scope="col">Due date</th>
              <th scope="col" className="table__number">
                Amount
              </th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {loan.schedule.map((row) => (
              <tr key={row.month}>
                <td>{row.month}</td>
                <td>{formatDate(row.dueDate)}</td>
                <td className="table__number">{formatPesoAmount(row.amount)}</td>
                <td>{statusLabel(row.status)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row" colSpan={2}>
                Total
              </th>
              <td className="table__number">{formatPesoAmount(total)}</td>
              <td />
            </tr>
          </tfoot>
        </table>
      </div>
      <p className="fine-print">
        {LATE_CHARGE_TEXT} {PREPAYMENT_TEXT}
      </p>
    </Dialog>
  );
}
