import { isCancellable } from '@honeylend/contracts';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { ApiError } from '../../shared/api';
import { formatDate, formatPesoAmount } from '../../shared/money';
import { toast } from '../../shared/toast/toastStore';
import { Dialog } from '../components/Dialog';
import { StatusBadge } from '../components/StatusBadge';
import { defaultLoanMessage, loanNotice, UNDER_REVIEW_MESSAGE } from '../loans/loanNotice';
import { arrearsOf, upcomingDue } from '../loans/arrears';
import { ArrearsNotice } from '../loans/ArrearsNotice';
import { cancelLoanApplication, loanInFocus, useLoans } from '../stores/loans';
import { useNotifications } from '../stores/notifications';

export { UNDER_REVIEW_MESSAGE };

/**
 * Spec §2: the loan's number and status with that loan's own latest notice (never a withdrawal's),
 * and, while it is under review, a way to cancel it.
 */
export function LoanApplicationCard() {
  const loans = useLoans((state) => state.items);
  const status = useLoans((state) => state.status);
  const notifications = useNotifications((state) => state.items);
  const loan = loanInFocus(loans);
  const [confirming, setConfirming] = useState(false);
  const arrears = loan ? arrearsOf(loan) : null;
  const nextDue = loan ? upcomingDue(loan) : null;
  const ownNotice = loan ? loanNotice(loan, notifications) : null;
  // In arrears, what is overdue is said first and "all is well" not at all.
  const notice = arrears && ownNotice === defaultLoanMessage('active') ? null : ownNotice;
  const [cancelling, setCancelling] = useState(false);

  async function cancel() {
    if (!loan || cancelling) return;
    setCancelling(true);
    try {
      await cancelLoanApplication(loan.id);
      setConfirming(false);
      toast({ title: 'Application cancelled', description: `${loan.loanNumber} is cancelled. You may apply again at any time.` });
    } catch (error) {
      if (!(error instanceof ApiError && error.accountSuspended)) {
        toast({ variant: 'destructive', title: 'Application not cancelled', description: (error instanceof Error && error.message) || 'Please try again' });
      }
      setConfirming(false);
      void useLoans.getState().fetch();
    } finally {
      setCancelling(false);
    }
  }

  return (
    <section className="card" aria-labelledby="loan-application-title" aria-busy={status === 'loading' || undefined}>
      <h2 id="loan-application-title" className="card__title">
        Loan application
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
          {arrears && <ArrearsNotice arrears={arrears} />}
          {notice !== null && (
            <p className="message" data-testid="loan-message">
              {notice}
            </p>
          )}
          {loan.acceptance.awaiting && (
            <Link className="button button--primary" to={`/loans/${loan.id}`}>
              Review and accept the Disclosure Statement
            </Link>
          )}
          {isCancellable(loan.status) && (
            <button type="button" className="button button--secondary" onClick={() => setConfirming(true)}>
              Cancel application
            </button>
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
                  <dd>{nextDue ? `${formatPesoAmount(nextDue.amount)} on ${formatDate(nextDue.date)}` : '—'}</dd>
                </div>
              </dl>
              <Link className="button button--primary" to={`/loans/${loan.id}`}>
                {loan.status === 'active' ? 'View loan and pay' : 'View loan'}
              </Link>
            </>
          )}
          <Dialog
            open={confirming}
            title="Cancel this application?"
            description={`${loan.loanNumber} for ${formatPesoAmount(loan.amount)} will be withdrawn and no longer reviewed. You may apply again afterwards.`}
            onClose={() => !cancelling && setConfirming(false)}
            actions={
              <>
                <button type="button" className="button button--primary" disabled={cancelling} aria-busy={cancelling || undefined} onClick={() => void cancel()}>
                  {cancelling ? 'Please wait...' : 'Yes, cancel it'}
                </button>
                <button type="button" className="button button--secondary" disabled={cancelling} onClick={() => setConfirming(false)}>
                  Keep my application
                </button>
              </>
            }
          />
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
