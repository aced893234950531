import { formatPercent, formatPesoAmount } from '../../shared/money';
import { useLoans } from '../stores/loans';

/** Spec §2/§9: the first loan's amount, term, interest, monthly repayment, finance charge and effective rate. */
export function LoanPreviewCard() {
  const loan = useLoans((state) => state.items[0]);
  if (!loan) return null;
  return (
    <section className="card" aria-labelledby="loan-preview-title">
      <h2 id="loan-preview-title" className="card__title">
        Loan Preview
      </h2>
      <dl className="facts facts--two">
        <div>
          <dt>Loan amount</dt>
          <dd>{formatPesoAmount(loan.amount)}</dd>
        </div>
        <div>
          <dt>Monthly terms</dt>
          <dd>{loan.termMonths} months</dd>
        </div>
        <div>
          <dt>Interest rate</dt>
          <dd>{formatPercent(loan.interestRate)} per month</dd>
        </div>
        <div>
          <dt>Monthly repayment</dt>
          <dd>{formatPesoAmount(loan.monthlyPayment)}</dd>
        </div>
        <div>
          <dt>Total finance charge</dt>
          <dd>{formatPesoAmount(loan.disclosure.financeCharge)}</dd>
        </div>
        <div>
          <dt>Effective rate</dt>
          <dd>
            {formatPercent(loan.disclosure.effectiveMonthlyRatePercent)} per month ({formatPercent(loan.disclosure.effectiveAnnualRatePercent)} per year)
          </dd>
        </div>
      </dl>
    </section>
  );
}
