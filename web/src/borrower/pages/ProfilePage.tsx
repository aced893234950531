import { lazy, Suspense, useState } from 'react';
import { useDocumentTitle } from '../../shared/useDocumentTitle';
import { CreditTierBadge } from '../components/CreditTierBadge';
import { AlertIcon, CalendarIcon, CheckIcon, DocumentIcon } from '../components/icons';
import { MemberGreeting } from '../components/MemberGreeting';
import { LoanContractDialog } from '../loans/LoanContractDialog';
import { NoLoanDialog } from '../loans/NoLoanDialog';
import { PaymentScheduleDialog } from '../loans/PaymentScheduleDialog';
import { DocumentsCard } from '../profile/DocumentsCard';
import { PersonalInfoCard } from '../profile/PersonalInfoCard';
import { AccountSecurityCard } from '../account/AccountSecurityCard';
import { loanInFocus, useLoans } from '../stores/loans';
import { useSignedInUser } from '../stores/session';

// The data privacy card (RA 10173) is a chunk of its own: the dashboard's first load stays within its budget.
const PrivacyCard = lazy(() => import('../privacy/PrivacyCard').then((module) => ({ default: module.PrivacyCard })));

/** Spec §2 profile (/profile). */
export function ProfilePage() {
  useDocumentTitle('Profile');
  const user = useSignedInUser();
  return (
    <div className="page profile">
      <header className="page__header">
        <h1 id="page-title">Profile</h1>
        <MemberGreeting />
      </header>
      <div className="page__grid">
        <div className="page__column">
          <section className="card profile-summary" aria-label="Credit score and verification">
            <CreditTierBadge score={user.creditScore} />
            {user.verified && user.phoneVerified ? (
              <p className="verification verification--done">
                <CheckIcon size={18} /> Verified account
              </p>
            ) : user.verified ? (
              <p className="verification verification--todo">
                <AlertIcon size={18} /> One more step: confirm your phone number (Account security).
              </p>
            ) : (
              <p className="verification verification--todo">
                <AlertIcon size={18} /> Not verified yet: complete your personal information and upload your documents.
              </p>
            )}
          </section>
          <PersonalInfoCard />
          <AccountSecurityCard />
          <LoanDocuments />
          <Suspense fallback={null}>
            <PrivacyCard />
          </Suspense>
        </div>
        <div className="page__column">
          <DocumentsCard />
        </div>
      </div>
    </div>
  );
}

function LoanDocuments() {
  const user = useSignedInUser();
  const loans = useLoans((state) => state.items);
  const status = useLoans((state) => state.status);
  const loan = loanInFocus(loans);
  const [dialog, setDialog] = useState<'none' | 'contract' | 'schedule' | 'no-loan'>('none');
  const open = (which: 'contract' | 'schedule') => setDialog(loan ? which : 'no-loan');
  const close = () => setDialog('none');

  return (
    <section className="card" aria-labelledby="loan-documents-title">
      <h2 id="loan-documents-title" className="card__title">
        My loan
      </h2>
      <div className="button-row">
        <button type="button" className="button button--secondary" onClick={() => open('contract')} disabled={status === 'loading'}>
          <DocumentIcon size={18} /> Loan contract
        </button>
        <button type="button" className="button button--secondary" onClick={() => open('schedule')} disabled={status === 'loading'}>
          <CalendarIcon size={18} /> Payment schedule
        </button>
      </div>
      {loan && <LoanContractDialog loan={loan} member={user} open={dialog === 'contract'} onClose={close} />}
      {loan && <PaymentScheduleDialog loan={loan} open={dialog === 'schedule'} onClose={close} />}
      <NoLoanDialog open={dialog === 'no-loan'} onClose={close} />
    </section>
  );
}
