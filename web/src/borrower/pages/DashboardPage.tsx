import type { LoanAnswer } from '@honeylend/contracts';
import { useEffect, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { formatPesoAmount } from '../../shared/money';
import { useDocumentTitle } from '../../shared/useDocumentTitle';
import { CheckIcon, ShieldIcon } from '../components/icons';
import { MemberGreeting } from '../components/MemberGreeting';
import { OperatorDetails } from '../components/OperatorDetails';
import { PartnerBanks } from '../components/PartnerBanks';
import { StatusBadge } from '../components/StatusBadge';
import { CurrencyConverter } from '../dashboard/CurrencyConverter';
import { BannerCarousel } from '../landing/BannerCarousel';
import { ApplyLoanDialog } from '../loans/lazyApplyLoanDialog';
import { VerificationRequiredDialog } from '../loans/VerificationRequiredDialog';
import { isOpenLoan, mayApply, useLoans } from '../stores/loans';
import { useNotifications } from '../stores/notifications';
import { useSignedInUser } from '../stores/session';
import { defaultLoanMessage, loanNotice } from '../loans/loanNotice';
import { arrearsOf, upcomingDue } from '../loans/arrears';
import { ArrearsNotice } from '../loans/ArrearsNotice';
import type { LoanPageNavigationState } from './LoanPage';
import { formatDate } from '../../shared/money';

/** Where another screen asks the dashboard to open the application (Apply now in the profile's No Loan dialog). */
export interface DashboardNavigationState {
  openApplication?: boolean;
}

/**
 * The card's title follows the loan (issue 17, item 5): "Active loan" is said only of an active
 * loan — an approval waiting for the borrower's acceptance, or an application, is not one.
 */
function loanCardTitle(loan: LoanAnswer | null): string {
  if (!loan || loan.status === 'active') return 'Active loan';
  if (loan.status === 'approved') return 'Approved loan';
  return 'Loan application';
}

/** The loan the card is about: the open one (active first, then approved, then the application); closed loans are not shown here. */
function openLoanOf(loans: readonly LoanAnswer[]): LoanAnswer | null {
  const open = loans.filter(isOpenLoan);
  return open.find((loan) => loan.status === 'active') ?? open.find((loan) => loan.status === 'approved') ?? open[0] ?? null;
}

/** Spec §2 dashboard (/loan-app). */
export function DashboardPage() {
  useDocumentTitle('Dashboard');
  return (
    <div className="page dashboard">
      <header className="page__header">
        <h1 id="page-title">Dashboard</h1>
        <MemberGreeting />
      </header>
      <div className="page__grid">
        <div className="page__column">
          <ActiveLoanCard />
          <VerificationCard />
          <BannerCarousel />
        </div>
        <div className="page__column">
          <CurrencyConverter />
          <PartnerBanks />
          <OperatorDetails />
        </div>
      </div>
    </div>
  );
}

function ActiveLoanCard() {
  const user = useSignedInUser();
  const loans = useLoans((state) => state.items);
  // Before the first fetch has started the loans are unknown, not absent: shown as loading.
  const status = useLoans((state) => (state.status === 'idle' ? 'loading' : state.status));
  const notifications = useNotifications((state) => state.items);
  const loan = openLoanOf(loans);
  const canApply = mayApply(loans);
  const [dialog, setDialog] = useState<'none' | 'apply' | 'verify' | 'phone'>('none');
  const location = useLocation();
  const navigate = useNavigate();
  const openApplication = (location.state as DashboardNavigationState | null)?.openApplication === true;

  function quickLoan() {
    setDialog(!user.verified ? 'verify' : user.phoneVerified ? 'apply' : 'phone');
  }

  // Arrived with "open the application": open it once the loans are known (only if one may apply),
  // and drop the request from the history entry so a reload or Back does not open it again.
  useEffect(() => {
    if (!openApplication || status === 'loading') return; // 'idle' reads as 'loading' above
    void navigate(location.pathname, { replace: true, state: null });
    if (canApply) setDialog(!user.verified ? 'verify' : user.phoneVerified ? 'apply' : 'phone');
  }, [openApplication, status, canApply, user.verified, user.phoneVerified, navigate, location.pathname]);
  const notice = loan ? loanNotice(loan, notifications) : null;
  const arrears = loan ? arrearsOf(loan) : null;
  const nextDue = loan ? upcomingDue(loan) : null;
  // In arrears, what is overdue is said first and "all is well" not at all.
  const message = arrears && notice === defaultLoanMessage('active') ? null : notice;

  return (
    <section className="card loan-card" aria-labelledby="loan-card-title" aria-busy={status === 'loading' || undefined}>
      <h2 id="loan-card-title" className="card__title">
        {loanCardTitle(loan)}
      </h2>
      {status === 'loading' ? (
        <p className="muted" role="status">
          Loading...
        </p>
      ) : loan ? (
        <>
          <dl className="loan-card__facts">
            <div>
              <dt>Loan number</dt>
              <dd data-testid="loan-number">{loan.loanNumber}</dd>
            </div>
            <div>
              <dt>Status</dt>
              <dd data-testid="loan-status">
                <StatusBadge status={loan.status} />
              </dd>
            </div>
            {loan.status === 'active' ? (
              <>
                <div className="loan-card__amount">
                  <dt>Still owed</dt>
                  <dd data-testid="loan-still-owed">{formatPesoAmount(loan.outstanding.total)}</dd>
                </div>
                <div>
                  <dt>Next due</dt>
                  <dd data-testid="loan-card-next-due">{nextDue ? `${formatPesoAmount(nextDue.amount)} on ${formatDate(nextDue.date)}` : '—'}</dd>
                </div>
              </>
            ) : (
              <div className="loan-card__amount">
                <dt>Amount</dt>
                <dd>{formatPesoAmount(loan.amount)}</dd>
              </div>
            )}
          </dl>
          {arrears && <ArrearsNotice arrears={arrears} />}
          {message && (
            <p className="message loan-card__message" data-testid="loan-status-message">
              {message}
            </p>
          )}
        </>
      ) : (
        <div className="loan-card__empty">
          <p className="loan-card__none">No active loans</p>
          <p className="loan-card__zero">{formatPesoAmount(0)}</p>
        </div>
      )}
      {status === 'error' && <p className="field__error">Failed to fetch loans</p>}
      <div className="loan-card__actions">
        {loan && arrears && (
          <Link className="button button--primary button--block" to={`/loans/${loan.id}`} state={{ pay: true } satisfies LoanPageNavigationState}>
            Pay {formatPesoAmount(arrears.overdueAmount)}
          </Link>
        )}
        {loan && loan.status === 'active' && user.balance > 0 && (
          <Link className={`button ${arrears ? 'button--secondary' : 'button--primary'} button--block`} to="/wallet">
            Withdraw now
          </Link>
        )}
        {loan && (
          <Link className={`button ${loan.status === 'active' || loan.status === 'approved' ? 'button--secondary' : 'button--primary'} button--block`} to="/wallet">
            View loan status
          </Link>
        )}
        {canApply && status !== 'loading' && (
          <button type="button" className={`button ${loan ? 'button--secondary' : 'button--primary'} button--block`} onClick={quickLoan}>
            Quick loan
          </button>
        )}
      </div>
      <ApplyLoanDialog open={dialog === 'apply'} onClose={() => setDialog('none')} />
      <VerificationRequiredDialog open={dialog === 'verify'} onClose={() => setDialog('none')} />
      <VerificationRequiredDialog open={dialog === 'phone'} phoneOnly onClose={() => setDialog('none')} />
    </section>
  );
}

function VerificationCard() {
  const user = useSignedInUser();
  const loans = useLoans((state) => state.items);
  const loansKnown = useLoans((state) => state.status === 'ready');
  // The prerendered frame (dashboard.html, dashboard/frame.tsx) is drawn for a member not yet known:
  // it says nothing about verification rather than something that may not be true of the member
  // who opens it.
  if (!user.id) return null;
  // "You can apply" only once the loans are known and nothing is open: with an application or a
  // loan, the loan card says where it stands. (Said while the loans loaded, it was untrue for a
  // member with an open loan, and its going moved the page below it: layout shift.)
  if (user.verified && user.phoneVerified && (!loansKnown || loans.some(isOpenLoan))) return null;
  if (user.verified && user.phoneVerified) {
    return (
      <section className="banner banner--verified" aria-label="Account verification">
        <span className="banner__icon">
          <CheckIcon size={20} />
        </span>
        <div>
          <p className="banner__title">Your account is verified</p>
          <p className="banner__text">You can apply for a loan.</p>
        </div>
      </section>
    );
  }
  return (
    <section className="banner banner--prompt" aria-labelledby="verification-title">
      <span className="banner__icon">
        <ShieldIcon size={20} />
      </span>
      <div className="banner__body">
        <h2 id="verification-title" className="banner__title">
          Account Verification
        </h2>
        <p className="banner__text">
          {user.verified
            ? 'One more step: confirm your phone number with the code we text you.'
            : user.personalInfoComplete
              ? 'Upload your ID and a selfie to finish verifying your account.'
              : 'Complete your personal information and upload your ID to apply for a loan.'}
        </p>
      </div>
      <Link className="button button--primary banner__action" to="/profile">
        Verify now
      </Link>
    </section>
  );
}
