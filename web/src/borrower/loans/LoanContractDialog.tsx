import type { LoanAnswer, UserAnswer } from '@honeylend/contracts';
import { formatDate, formatPercent, formatPesoAmount, statusLabel } from '../../shared/money';
import { Dialog } from '../components/Dialog';
import { useCompany } from '../../shared/companyStore';
import { LATE_CHARGE_TEXT, PREPAYMENT_TEXT } from './loanTerms';

/**
 * Spec §2 'Loan contract' for the loan in focus, with the Truth in Lending Act (RA 3765)
 * disclosure the server computed from the schedule's real cash flows.
 */
export function LoanContractDialog({ loan, member, open, onClose }: { loan: LoanAnswer; member: UserAnswer; open: boolean; onClose: () => void }) {
  const { disclosure } = loan;
  const company = useCompany((state) => state.company);
  const first = loan.schedule[0];
  return (
    <Dialog
      open={open}
      title="Loan contract"
      description={`Loan ${loan.loanNumber}, applied for on ${formatDate(loan.createdAt)}`}
      onClose={onClose}
      wide
      closeButton
      actions={
        <button type="button" className="button button--primary" onClick={onClose}>
          Close
        </button>
      }
    >
      <div className="contract">
        <h3 className="contract__heading">Parties</h3>
        <dl className="details-list">
          <dt>Lender</dt>
          {company ? (
            <dd>
              {company.companyName}, SEC Registration No. {company.secRegistrationNumber}, Certificate of Authority No. {company.certificateOfAuthorityNumber}, {company.address}
            </dd>
          ) : (
            <dd>Honeylend</dd>
          )}
          <dt>Borrower</dt>
          <dd>
            {member.fullName} ({member.phone})
          </dd>
        </dl>

        <h3 className="contract__heading">The loan</h3>
        <dl className="details-list">
          <dt>Status</dt>
          <dd>{statusLabel(loan.status)}</dd>
          <dt>Amount borrowed</dt>
          <dd>{formatPesoAmount(loan.amount)}</dd>
          <dt>Purpose</dt>
          <dd>{loan.purpose}</dd>
          <dt>Term</dt>
          <dd>{loan.termMonths} months</dd>
          <dt>Interest rate</dt>
          <dd>{formatPercent(loan.interestRate)} per month (flat)</dd>
          <dt>Monthly repayment</dt>
          <dd>{formatPesoAmount(loan.monthlyPayment)}</dd>
          {first && (
            <>
              <dt>{loan.disbursement.done ? 'First payment due' : 'First payment due, if the money reaches your wallet today'}</dt>
              <dd>{formatDate(first.dueDate)}</dd>
            </>
          )}
          <dt>Final payment</dt>
          <dd>{formatPesoAmount(disclosure.finalPayment)}</dd>
        </dl>

        <h3 className="contract__heading">Disclosure statement (Truth in Lending Act, RA 3765)</h3>
        <dl className="details-list">
          <dt>Amount financed</dt>
          <dd>{formatPesoAmount(loan.amount)}</dd>
          <dt>Total finance charge</dt>
          <dd>{formatPesoAmount(disclosure.financeCharge)}</dd>
          <dt>Total amount to repay</dt>
          <dd>{formatPesoAmount(disclosure.totalRepayable)}</dd>
          <dt>Nominal rate</dt>
          <dd>{formatPercent(disclosure.nominalMonthlyRatePercent)} per month</dd>
          <dt>Effective interest rate</dt>
          <dd>
            {formatPercent(disclosure.effectiveMonthlyRatePercent)} per month ({formatPercent(disclosure.effectiveAnnualRatePercent)} per year)
          </dd>
        </dl>

        <h3 className="contract__heading">Terms</h3>
        <ul className="contract__terms">
          <li>{LATE_CHARGE_TEXT}</li>
          <li>{PREPAYMENT_TEXT}</li>
          <li>Honeylend never asks you to pay a fee or a deposit to approve or release your loan.</li>
        </ul>
      </div>
    </Dialog>
  );
}
