import { cleanup } from '@testing-library/react';
import { afterEach, beforeEach } from 'vitest';
import { useLoans } from '../borrower/stores/loans';
import { useNotifications } from '../borrower/stores/notifications';
import { useProfile } from '../borrower/stores/profile';
import { useSession } from '../borrower/stores/session';
import { useWithdrawalFlow, useWithdrawals } from '../borrower/stores/wallet';
import { useToasts } from '../shared/toast/toastStore';
import { useCompany } from '../shared/companyStore';
import { useLoanTerms } from '../borrower/stores/loanTerms';
import { fallbackRatesAnswer, jsonResponse, routeFetch } from './http';

beforeEach(() => {
  // Screens that fetch on their own (the converter's rates) get an answer; a test's own mock replaces this.
  routeFetch({ 'GET /api/rates': () => jsonResponse(fallbackRatesAnswer()) });
  // The lender's details count as read (none published): only a test about them lets the shell fetch them.
  useCompany.setState({ company: null, status: 'ready' });
});

afterEach(() => {
  cleanup();
  localStorage.clear();
  useSession.setState({ user: null, staffRole: null, loading: true });
  useToasts.setState({ toasts: [] });
  useLoans.getState().clear();
  useWithdrawals.getState().clear();
  useNotifications.getState().clear();
  useWithdrawalFlow.getState().cancel();
  useProfile.setState({ saving: false, uploading: false });
  // The configured rate is asked for again by the next test (which may answer another one).
  useLoanTerms.setState({ monthlyRateBps: null, status: 'idle' });
});
