import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { UserAnswer } from '@honeylend/contracts';
import { describe, expect, it } from 'vitest';
import { jsonResponse, memberAnswer, requestOf, routeFetch } from '../../testing/http';
import { renderApp } from '../../testing/renderApp';
import { useLoans } from '../stores/loans';
import { useNotifications } from '../stores/notifications';
import { useSession } from '../stores/session';
import { WithdrawalHoldNotice } from '../wallet/WithdrawalHoldNotice';

/** Issue 14 items 3 and 11: the bank-change code step in the profile edit, and the hold notice on the wallet. */
const COMPLETE: Partial<UserAnswer> = {
  address: '123 Rizal Avenue, Manila',
  countryOfWork: 'Philippines',
  monthlySalary: 35000,
  referenceName: 'Jose Santos',
  referencePhone: '09181234567',
  bankName: 'BPI',
  bankAccountNumber: '1234567890',
  personalInfoComplete: true,
};
const HOLD = {
  until: '2099-11-26T08:00:00.000Z',
  reason: 'bank-account-changed' as const,
  message: 'Your bank account was changed. To protect your money, withdrawals are paused for 24 hours after a change.',
};

function signedIn(overrides: Partial<UserAnswer> = {}) {
  localStorage.setItem('token', 'jwt-abc');
  useSession.setState({ user: memberAnswer(overrides), loading: false });
  useLoans.setState({ status: 'ready' });
  useNotifications.setState({ status: 'ready' });
}

function openEdit() {
  renderApp('/profile');
  fireEvent.click(screen.getByRole('button', { name: 'View more' }));
  fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Edit' }));
  return screen.getByRole('dialog', { name: 'Personal Information' });
}

describe('changing the bank account on the profile', () => {
  it('asks for the texted code, naming the new account, then saves with it and says withdrawals pause', async () => {
    signedIn(COMPLETE);
    const saved = memberAnswer({ ...COMPLETE, bankName: 'BDO', bankAccountNumber: '5555555555', withdrawalHold: HOLD, version: 20 });
    const fetchMock = routeFetch({
      'POST /api/user/bank-account/otp': () => jsonResponse({ sentTo: '+63•••••4567', expiresAt: '2099-01-01T00:05:00.000Z', challengeId: 'c1', destination: 'BDO ••••5555' }, { status: 202 }),
      'PUT /api/user/profile': () => jsonResponse(saved),
    });
    const form = openEdit();
    fireEvent.change(within(form).getByLabelText('Bank name'), { target: { value: 'BDO' } });
    fireEvent.change(within(form).getByLabelText('Account number'), { target: { value: '5555555555' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));

    const step = await screen.findByRole('dialog', { name: 'Confirm your new bank account' });
    expect(step.textContent).toContain('+63•••••4567');
    expect(step.textContent).toContain('BDO ••••5555');
    expect(step.textContent).toContain('withdrawals are paused for 24 hours');
    const codeRequest = requestOf(
      fetchMock,
      // eslint-disable-next-line @typescript-eslint/no-base-to-string -- the app calls fetch with string paths
      fetchMock.mock.calls.findIndex(([url]) => String(url) === '/api/user/bank-account/otp'),
    );
    expect(codeRequest.body).toEqual({ bankName: 'BDO', bankAccountNumber: '5555555555' });
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- the app calls fetch with string paths
    expect(fetchMock.mock.calls.some(([url, init]) => String(url) === '/api/user/profile' && init?.method === 'PUT')).toBe(false);

    fireEvent.click(within(step).getByRole('button', { name: 'Confirm change' }));
    expect(within(step).getByText('The code is exactly 6 digits')).toBeTruthy();
    fireEvent.change(within(step).getByLabelText('Code from the SMS'), { target: { value: '123456' } });
    fireEvent.click(within(step).getByRole('button', { name: 'Confirm change' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Confirm your new bank account' })).toBeNull());
    const put = requestOf(
      fetchMock,
      // eslint-disable-next-line @typescript-eslint/no-base-to-string -- the app calls fetch with string paths
      fetchMock.mock.calls.findIndex(([url, init]) => String(url) === '/api/user/profile' && init?.method === 'PUT'),
    );
    expect(put.body).toMatchObject({ bankName: 'BDO', bankAccountNumber: '5555555555', otp: '123456' });
    expect(useSession.getState().user?.withdrawalHold).toEqual(HOLD);
  });

  it('shows a wrong code under the code field and keeps the step open', async () => {
    signedIn(COMPLETE);
    routeFetch({
      'POST /api/user/bank-account/otp': () => jsonResponse({ sentTo: '+63•••••4567', expiresAt: '2099-01-01T00:05:00.000Z', challengeId: 'c1', destination: 'BDO ••••5555' }, { status: 202 }),
      'PUT /api/user/profile': () => jsonResponse({ message: 'Invalid OTP code', code: 'OTP_INVALID', details: { fields: { otp: 'Invalid OTP code' } } }, { status: 400 }),
    });
    const form = openEdit();
    fireEvent.change(within(form).getByLabelText('Account number'), { target: { value: '5555555555' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    const step = await screen.findByRole('dialog', { name: 'Confirm your new bank account' });
    fireEvent.change(within(step).getByLabelText('Code from the SMS'), { target: { value: '000000' } });
    fireEvent.click(within(step).getByRole('button', { name: 'Confirm change' }));
    expect(await within(step).findByText('Invalid OTP code')).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Confirm your new bank account' })).toBeTruthy();
  });

  it('saves other fields, and a first bank account, without a code', async () => {
    signedIn({ ...COMPLETE, bankName: null, bankAccountNumber: null, personalInfoComplete: false });
    const fetchMock = routeFetch({ 'PUT /api/user/profile': () => jsonResponse(memberAnswer({ ...COMPLETE, version: 21 })) });
    renderApp('/profile');
    fireEvent.click(screen.getByRole('button', { name: 'Complete personal information' }));
    const form = screen.getByRole('dialog', { name: 'Personal Information' });
    fireEvent.change(within(form).getByLabelText('Full name'), { target: { value: 'Maria Santos' } });
    fireEvent.change(within(form).getByLabelText('Bank name'), { target: { value: 'BPI' } });
    fireEvent.change(within(form).getByLabelText('Account number'), { target: { value: '1234567890' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Personal Information' })).toBeNull());
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- the app calls fetch with string paths
    expect(fetchMock.mock.calls.map(([url]) => String(url))).not.toContain('/api/user/bank-account/otp');
    expect(
      requestOf(
        fetchMock,
        // eslint-disable-next-line @typescript-eslint/no-base-to-string -- the app calls fetch with string paths
        fetchMock.mock.calls.findIndex(([url]) => String(url) === '/api/user/profile'),
      ).body,
    ).not.toHaveProperty('otp');
  });
});

describe('the withdrawal hold on the wallet', () => {
  it('says until when and why, and keeps Withdraw money disabled', () => {
    signedIn({ ...COMPLETE, balance: 5000, withdrawalHold: HOLD });
    renderApp('/wallet');
    const notice = screen.getByTestId('withdrawal-hold');
    expect(notice.textContent).toContain('Withdrawals paused until');
    expect(notice.textContent).toContain('2099');
    expect(notice.textContent).toContain('Your bank account was changed.');
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Withdraw money' }).disabled).toBe(true);
  });

  it('shows nothing once the hold has ended, and Withdraw money works again', () => {
    signedIn({ ...COMPLETE, balance: 5000, withdrawalHold: { ...HOLD, until: '2020-01-01T00:00:00.000Z' } });
    renderApp('/wallet');
    expect(screen.queryByTestId('withdrawal-hold')).toBeNull();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Withdraw money' }).disabled).toBe(false);
  });

  it('renders nothing without a hold', () => {
    const { container } = render(<WithdrawalHoldNotice hold={null} />);
    expect(container.textContent).toBe('');
  });
});
