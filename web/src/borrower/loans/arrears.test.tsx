import { screen, waitFor, within } from '@testing-library/react';
import type { LoanAnswer, UserAnswer } from '@honeylend/contracts';
import { beforeEach, describe, expect, it } from 'vitest';
import { useToasts } from '../../shared/toast/toastStore';
import { jsonResponse, loanAnswer, memberAnswer, routeFetch } from '../../testing/http';
import { renderApp } from '../../testing/renderApp';
import { useLoans } from '../stores/loans';
import { announceApproval } from '../stores/liveUpdates';
import { useNotifications } from '../stores/notifications';
import { useSession } from '../stores/session';
import { arrearsOf, upcomingDue } from './arrears';

/**
 * A borrower behind on payments is told so first — how much since when, the late charges, what brings
 * the loan up to date, and a Pay button — and never "all is well"; "next due" is never a date gone by.
 */
const row = (number: number, dueDate: string, fields: Partial<LoanAnswer['schedule'][number]> = {}): LoanAnswer['schedule'][number] => ({
  month: number,
  number,
  dueDate,
  amount: 13_000,
  principal: 10_000,
  interest: 3_000,
  penalty: 0,
  paid: 0,
  interestWaived: 0,
  status: 'upcoming',
  daysPastDue: 0,
  ...fields,
});

/** On 30 October: instalment 1 paid, 2 unpaid 27 days with ₱104 of late charges, 3 partly paid and 1 day late, 4 on 3 December. */
const lateLoan: LoanAnswer = loanAnswer(
  { status: 'active', amountCentavos: 12_000_000 },
  {
    schedule: [
      row(1, '2026-09-03', { paid: 13_000, status: 'paid' }),
      row(2, '2026-10-03', { penalty: 104, status: 'overdue', daysPastDue: 27 }),
      row(3, '2026-10-29', { paid: 5_000, penalty: 0.87, status: 'overdue', daysPastDue: 1 }),
      row(4, '2026-12-03'),
    ],
    outstanding: { principal: 100_000, interest: 27_000, penalties: 104.87, total: 127_104.87 },
    // The server's "next due" is the first unpaid instalment, past or not.
    nextDue: { date: '2026-10-03', amount: 13_104 },
    daysPastDue: 27,
  },
);

const VERIFIED: Partial<UserAnswer> = { personalInfoComplete: true, documentsComplete: true, verified: true, phoneVerified: true, balance: 2_000 };

beforeEach(() => {
  localStorage.setItem('token', 'jwt-abc');
  useSession.setState({ user: memberAnswer(VERIFIED), loading: false });
  useLoans.setState({ status: 'ready', items: [lateLoan] });
  useNotifications.setState({ status: 'ready', items: [] });
});

describe('arrears', () => {
  it('adds up what is past due with its late charges, from the oldest unpaid due date; the next due is the next instalment not yet late', () => {
    expect(arrearsOf(lateLoan)).toEqual({ overdueAmount: 21_104.87, lateCharges: 104.87, since: '2026-10-03', daysPastDue: 27, instalments: 2 });
    expect(upcomingDue(lateLoan)).toEqual({ date: '2026-12-03', amount: 13_000 });
    expect(arrearsOf(loanAnswer({ status: 'active' }))).toBeNull();
    expect(arrearsOf({ ...lateLoan, status: 'completed' })).toBeNull();
  });

  it('the dashboard says first how much is overdue since when, offers Pay as the main action and never says all is well', () => {
    renderApp('/loan-app');
    const card = screen.getByRole('region', { name: 'Active loan' });
    expect(within(card).getByTestId('loan-arrears').textContent).toBe(
      '₱21,104.87 overdue since Oct 3, 20262 instalments are late, the oldest 27 days past due; late charges so far ₱104.87, included above. Paying ₱21,104.87 brings your loan up to date.',
    );
    expect(card.textContent).not.toContain('Your loan is active');
    const pay = within(card).getByRole('link', { name: 'Pay ₱21,104.87' });
    expect(pay.getAttribute('href')).toBe(`/loans/${lateLoan.id}`);
    expect(pay.className).toContain('button--primary');
    expect(within(card).getByRole('link', { name: 'Withdraw now' }).className).toContain('button--secondary');
    // What is still owed and the next date, not the principal lent.
    expect(within(card).getByTestId('loan-still-owed').textContent).toBe('₱127,104.87');
    expect(within(card).getByTestId('loan-card-next-due').textContent).toBe('₱13,000.00 on Dec 3, 2026');
  });

  it('the wallet card says the same, with the next due date still to come', () => {
    renderApp('/wallet');
    const card = screen.getByRole('region', { name: 'Loan application' });
    expect(within(card).getByTestId('loan-arrears').textContent).toContain('₱21,104.87 overdue since Oct 3, 2026');
    expect(within(card).queryByTestId('loan-message')).toBeNull();
    expect(card.textContent).toContain('₱13,000.00 on Dec 3, 2026');
    expect(card.textContent).not.toContain('Oct 3, 2026 ');
  });

  it("the loan page's top card shows the overdue total and days past due, and a next due still to come", async () => {
    routeFetch({
      [`/api/loans/${lateLoan.id}`]: () => jsonResponse({ ...lateLoan, account: null, businessDate: '2026-10-30' }),
      [`/api/loans/${lateLoan.id}/payoff-quote`]: () => jsonResponse({ amount: 100_104.87, validUntil: '2026-10-30T15:59:59.999Z', breakdown: { principal: 100_000, interest: 0, penalties: 104.87 } }),
    });
    renderApp(`/loans/${lateLoan.id}`);
    await waitFor(() => expect(screen.getByTestId('loan-overdue').textContent).toBe('₱21,104.87 27 days past due'));
    expect(screen.getByTestId('loan-next-due').textContent).toBe('₱13,000.00 on Dec 3, 2026');
    expect(screen.getByTestId('loan-arrears').textContent).toContain('Paying ₱21,104.87 brings your loan up to date.');
  });

  it('a loan with nothing past due keeps its plain notice and Withdraw now as the main action', () => {
    useLoans.setState({ items: [loanAnswer({ status: 'active' })] });
    renderApp('/loan-app');
    const card = screen.getByRole('region', { name: 'Active loan' });
    expect(within(card).queryByTestId('loan-arrears')).toBeNull();
    expect(within(card).getByTestId('loan-status-message').textContent).toBe('Your loan is active. Your repayment schedule is in the app.');
    expect(within(card).getByRole('link', { name: 'Withdraw now' }).className).toContain('button--primary');
  });
});

describe('the approval notice', () => {
  it('says the money arrives once the Disclosure Statement is accepted, not that it is in the wallet', () => {
    useToasts.setState({ toasts: [] });
    const pending = loanAnswer({ status: 'pending', amountCentavos: 13_000_000 });
    announceApproval(pending, { ...pending, status: 'approved' });
    expect(useToasts.getState().toasts.map((toast) => toast.description)).toEqual(['LN-2026-000123: read and accept its Disclosure Statement to receive ₱130,000.00 in your wallet.']);
  });
});
