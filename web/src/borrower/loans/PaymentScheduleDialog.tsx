import type { LoanAnswer } from '@honeylend/contracts';
import { formatDate } from '../../shared/money';
import { Dialog } from '../components/Dialog';
import { LATE_CHARGE_TEXT, PREPAYMENT_TEXT } from './loanTerms';
import { ScheduleTable } from './ScheduleTable';

/** Spec §2/§9: one row per month, the first due two months after the money reaches the wallet, each with its real status (paid, due, overdue…). */
export function PaymentScheduleDialog({ loan, open, onClose }: { loan: LoanAnswer; open: boolean; onClose: () => void }) {
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
      {loan.schedule[0] && (
        <p className="fine-print" data-testid="first-due-note">
          {loan.disbursement.done
            ? `The money reached your wallet on ${formatDate(loan.disbursement.on)}; the first payment is due ${formatDate(loan.schedule[0].dueDate)}, then one each month.`
            : `The first payment falls two months after the money reaches your wallet, the day you accept the approved loan's Disclosure Statement: accepted today (${formatDate(loan.disbursement.on)}), it is due ${formatDate(loan.schedule[0].dueDate)}, then one each month; accepted later, every date moves with it.`}
        </p>
      )}
      <ScheduleTable schedule={loan.schedule} />
      <p className="fine-print">
        {LATE_CHARGE_TEXT} {PREPAYMENT_TEXT}
      </p>
    </Dialog>
  );
}
