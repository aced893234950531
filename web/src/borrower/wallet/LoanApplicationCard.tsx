import { Link } from 'react-router-dom';
import { formatDate, formatPesoAmount } from '../../shared/money';
import { StatusBadge } from '../components/StatusBadge';
import { loanInFocus, useLoans } from '../stores/loans';
import { useNotifications } from '../stores/notifications';

/** Spec §2 wallet text while no notification says otherwise. */
export const UNDER_REVIEW_MESSAGE = 'Your loan application is under review. Please contact your loan officer for approval process';

/** Spec §2: the loan's number and status with the latest notification's message (or the default one). */
export function LoanApplicationCard() {
  const loans = useLoans((state) => state.items);
  const status = useLoans((state) => state.status);
  const latest = useNotifications((state) => state.items[0]);
  const loan = loanInFocus(loans);

  return (
    <section className="card" aria-labelledby="loan-application-title" aria-busy={status === 'loading' || undefined}>
      <h2 id="loan-application-title" className="card__title">
        Loan Application
      </h2>
      {status === 'loading' ? (
        <p className="muted" role="status">
          Loading...
        </p>
      ) : loan ? (
        <>
          <dl className="facts">
            <div>
              <dt>Loan number</dt>
              <dd>{loan.loanNumber}</dd>
            </div>
            <div>
              <dt>Order status</dt>
              <dd data-testid="wallet-loan-status">
                <StatusBadge status={loan.status} />
              </dd>
            </div>
          </dl>
          <p className="message" data-testid="loan-message">
            {latest?.message ?? UNDER_REVIEW_MESSAGE}
          </p>
          {loan.acceptance.awaiting && (
            <Link className="button button--primary" to={`/loans/${loan.id}`}>
              Review and accept the Disclosure Statement
            </Link>
          )}
          {(loan.status === 'active' || loan.status === 'completed') && (
            <>
              <dl className="facts">
                <div>
                  <dt>Outstanding</dt>
                  <dd>{formatPesoAmount(loan.outstanding.total)}</dd>
                </div>
                <div>
                  <dt>Next due</dt>
                  <dd>{loan.nextDue ? `${formatPesoAmount(loan.nextDue.amount)} on ${formatDate(loan.nextDue.date)}` : '—'}</dd>
                </div>
              </dl>
              <Link className="button button--primary" to={`/loans/${loan.id}`}>
                {loan.status === 'active' ? 'View loan and pay' : 'View loan'}
              </Link>
            </>
          )}
        </>
      ) : (
        <>
          <p className="muted">No loan application yet.</p>
          <Link className="button button--secondary" to="/loan-app">
            Apply for a loan
          </Link>
        </>
      )}
      {status === 'error' && <p className="field__error">Failed to fetch loans</p>}
    </section>
  );
}
