import { useCallback, useEffect, useState } from 'react';
import { Link, useLocation, useParams } from 'react-router-dom';
import type { LoanDetailAnswer, PayoffQuoteAnswer } from '@honeylend/contracts';
import { ApiError } from '../../shared/api';
import { formatDate, formatDateTime, formatPesoAmount, statusLabel } from '../../shared/money';
import { realtime } from '../../shared/realtime';
import { useDocumentTitle } from '../../shared/useDocumentTitle';
import { StatusBadge } from '../components/StatusBadge';
import { fetchLoanDetail, fetchPayoffQuote } from '../loans/loanServicing';
import { PayDialog } from '../loans/PayDialog';
import { DisclosureCard } from '../loans/DisclosureCard';
import { ScheduleTable } from '../loans/ScheduleTable';
import { arrearsOf, upcomingDue } from '../loans/arrears';
import { ArrearsNotice } from '../loans/ArrearsNotice';
import { useSession } from '../stores/session';

/** What another screen may ask of the loan page on the way in. */
export interface LoanPageNavigationState {
  pay?: boolean;
}

/**
 * One loan (/loans/:id): what is owed and when, the schedule with paid / due / overdue badges,
 * Pay from the wallet, the payoff quote and the receipts. Follows the loan live: every repayment,
 * due date, charge or closing the feed pushes refetches it.
 */
export function LoanPage() {
  const { loanId = '' } = useParams();
  useDocumentTitle('Loan');
  const balance = useSession((state) => state.user?.balance ?? 0);
  const [loan, setLoan] = useState<LoanDetailAnswer | null>(null);
  const [quote, setQuote] = useState<PayoffQuoteAnswer | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  // Another screen's Pay button (the dashboard's, in arrears) opens the dialog on arrival.
  const location = useLocation();
  const [paying, setPaying] = useState(() => (location.state as LoanPageNavigationState | null)?.pay === true);

  const load = useCallback(async () => {
    try {
      const detail = await fetchLoanDetail(loanId);
      setLoan(detail);
      setQuote(detail.status === 'active' ? await fetchPayoffQuote(loanId) : null);
      setFailure(null);
    } catch (error) {
      setFailure(error instanceof ApiError && error.status === 404 ? 'Loan not found' : 'Failed to fetch loans');
    }
  }, [loanId]);

  useEffect(() => {
    void load();
    return realtime().subscribe<{ id: string; version: number }>('loan.updated', ({ doc }) => {
      if (doc.id === loanId) void load();
    });
  }, [load, loanId]);

  if (failure) {
    return (
      <div className="page">
        <p className="field__error">{failure}</p>
        <Link to="/wallet">Back to wallet</Link>
      </div>
    );
  }
  if (!loan) {
    return (
      <div className="page">
        <p className="muted" role="status">
          Loading...
        </p>
      </div>
    );
  }

  const active = loan.status === 'active';
  const arrears = arrearsOf(loan);
  const nextDue = upcomingDue(loan);
  return (
    <div className="page loan-page">
      <header className="page__header">
        <h1 id="page-title">Loan {loan.loanNumber}</h1>
        <StatusBadge status={loan.status} />
      </header>
      {loan.acceptance.awaiting && (
        <DisclosureCard
          loanId={loan.id}
          onAccepted={(accepted) => {
            setLoan(accepted);
            void load();
          }}
        />
      )}
      {loan.status === 'lapsed' && <p className="message">This approval lapsed: its Disclosure Statement was not accepted within 7 days. You may apply again.</p>}
      <section className="card" aria-labelledby="loan-owed-title">
        <h2 id="loan-owed-title" className="card__title">
          {active ? 'Outstanding' : 'Loan'}
        </h2>
        {arrears && <ArrearsNotice arrears={arrears} />}
        <dl className="facts">
          <div>
            <dt>Outstanding balance</dt>
            <dd data-testid="loan-outstanding">{formatPesoAmount(loan.outstanding.total)}</dd>
          </div>
          {arrears && (
            <div>
              <dt>Overdue</dt>
              <dd data-testid="loan-overdue">
                {formatPesoAmount(arrears.overdueAmount)} <span className="status-badge status-badge--bad">{arrears.daysPastDue} days past due</span>
              </dd>
            </div>
          )}
          <div>
            <dt>Next due</dt>
            <dd data-testid="loan-next-due">{nextDue ? `${formatPesoAmount(nextDue.amount)} on ${formatDate(nextDue.date)}` : '—'}</dd>
          </div>
          {loan.outstanding.penalties > 0 && (
            <div>
              <dt>Late charges</dt>
              <dd>{formatPesoAmount(loan.outstanding.penalties)}</dd>
            </div>
          )}
        </dl>
        {active && (
          <div className="button-row">
            <button type="button" className="button button--primary" onClick={() => setPaying(true)}>
              Pay
            </button>
          </div>
        )}
        {loan.status === 'completed' && <p className="message">This loan is fully repaid. You may apply for a new one.</p>}
      </section>

      {quote && (
        <section className="card" aria-labelledby="payoff-title">
          <h2 id="payoff-title" className="card__title">
            Payoff quote
          </h2>
          <p data-testid="payoff-amount">
            <strong>{formatPesoAmount(quote.amount)}</strong> closes the loan today (valid until {formatDateTime(quote.validUntil)}).
          </p>
          <p className="fine-print">
            Principal {formatPesoAmount(quote.breakdown.principal)} · interest due {formatPesoAmount(quote.breakdown.interest)} · late charges {formatPesoAmount(quote.breakdown.penalties)}. No interest is charged for
            instalments not yet due.
          </p>
        </section>
      )}

      <section className="card" aria-labelledby="schedule-title">
        <h2 id="schedule-title" className="card__title">
          Payment schedule
        </h2>
        <ScheduleTable schedule={loan.schedule} />
      </section>

      <section className="card" aria-labelledby="receipts-title">
        <h2 id="receipts-title" className="card__title">
          Receipts
        </h2>
        {loan.repayments.length === 0 ? (
          <p className="muted">No payments yet.</p>
        ) : (
          <ul className="receipts">
            {[...loan.repayments].reverse().map((repayment) => (
              <li key={repayment.id} className={repayment.reversed ? 'receipts__item receipts__item--reversed' : 'receipts__item'} data-testid="receipt">
                <span>
                  <strong>{repayment.receiptNumber}</strong> · {formatDate(repayment.valueDate)} · {statusLabel(repayment.channel)}
                </span>
                <span className="receipts__amount">
                  {formatPesoAmount(repayment.amount)}
                  {repayment.reversed && ' (reversed)'}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <PayDialog loan={loan} balance={balance} open={paying} onClose={() => setPaying(false)} onPaid={() => void load()} />
    </div>
  );
}
