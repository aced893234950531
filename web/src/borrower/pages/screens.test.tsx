import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { UserAnswer } from '@honeylend/contracts';
import { describe, expect, it } from 'vitest';
import { useToasts } from '../../shared/toast/toastStore';
import { fallbackRatesAnswer, jsonResponse, loanAnswer, memberAnswer, notificationAnswer, requestOf, routeFetch, withdrawalAnswer } from '../../testing/http';
import { renderApp } from '../../testing/renderApp';
import { OperatorDetails } from '../components/OperatorDetails';
import { useLoans } from '../stores/loans';
import { useNotifications } from '../stores/notifications';
import { useSession } from '../stores/session';
import { useWithdrawals } from '../stores/wallet';
import { useCompany } from '../../shared/companyStore';

const VERIFIED: Partial<UserAnswer> = {
  address: '123 Rizal Avenue, Manila',
  countryOfWork: 'Philippines',
  monthlySalary: 35000,
  referenceName: 'Jose Santos',
  referencePhone: '09181234567',
  bankName: 'BPI',
  bankAccountNumber: '1234567890',
  idFrontUrl: '/api/files/a?sig=1',
  idBackUrl: '/api/files/b?sig=1',
  selfieUrl: '/api/files/c?sig=1',
  personalInfoComplete: true,
  documentsComplete: true,
  verified: true,
  phoneVerified: true,
};

function signedIn(overrides: Partial<UserAnswer> = {}) {
  localStorage.setItem('token', 'jwt-abc');
  useSession.setState({ user: memberAnswer(overrides), loading: false });
  useLoans.setState({ status: 'ready' });
  useNotifications.setState({ status: 'ready' });
}

function toasts() {
  return useToasts.getState().toasts.map(({ title, description, variant }) => ({ title, description, variant }));
}

describe('dashboard (spec §2)', () => {
  it("shows 'No active loans' and ₱0.00, and sends an unverified member from Quick loan to verification", () => {
    signedIn();
    const view = renderApp('/loan-app');
    const card = screen.getByRole('region', { name: 'Active loan' });
    expect(card.textContent).toContain('No active loans');
    expect(card.textContent).toContain('₱0.00');
    expect(screen.getByRole('heading', { name: 'Account Verification' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Verify now' }).getAttribute('href')).toBe('/profile');

    fireEvent.click(screen.getByRole('button', { name: 'Quick loan' }));
    const dialog = screen.getByRole('dialog', { name: 'Verification Required' });
    expect(dialog.textContent).toContain('You need to complete your account verification before applying for a loan.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Verify now' }));
    expect(view.location()).toBe('/profile');
  });

  it('calls only an active loan "Active loan"; an approval awaiting acceptance is an approved loan, with View loan status instead of Quick loan', () => {
    signedIn(VERIFIED);
    useLoans.setState({ items: [loanAnswer({ id: 'older', loanNumber: 'LN-2026-000100', status: 'denied' }), loanAnswer({ loanNumber: 'LN-2026-000123', status: 'approved' })] });
    renderApp('/loan-app');
    expect(screen.queryByRole('region', { name: 'Active loan' })).toBeNull();
    const card = screen.getByRole('region', { name: 'Approved loan' });
    expect(within(card).getByTestId('loan-number').textContent).toBe('LN-2026-000123');
    expect(within(card).getByTestId('loan-status').textContent).toBe('Approved');
    expect(card.textContent).toContain('₱100,000.00');
    expect(within(card).getByRole('link', { name: 'View loan status' }).getAttribute('href')).toBe('/wallet');
    // Nothing to withdraw from an approval not yet accepted, whatever the balance.
    expect(within(card).queryByRole('link', { name: 'Withdraw now' })).toBeNull();
    expect(within(card).queryByRole('button', { name: 'Quick loan' })).toBeNull();
    // With a loan open, "you can apply" would contradict the card (issue 22, item 7).
    expect(screen.queryByText('Your account is verified')).toBeNull();
  });

  it('shows an active loan as the Active loan, and a closed one not at all: a cancelled or paid-off loan leaves "No active loans" and Quick loan', () => {
    signedIn({ ...VERIFIED, balance: 5000 });
    useLoans.setState({ items: [loanAnswer({ status: 'active' })] });
    const view = renderApp('/loan-app');
    const active = screen.getByRole('region', { name: 'Active loan' });
    expect(within(active).getByTestId('loan-status').textContent).toBe('Active');
    expect(within(active).getByRole('link', { name: 'Withdraw now' })).toBeTruthy();
    view.unmount();

    for (const status of ['cancelled', 'completed', 'lapsed', 'denied']) {
      useLoans.setState({ items: [loanAnswer({ status })] });
      const again = renderApp('/loan-app');
      const card = screen.getByRole('region', { name: 'Active loan' });
      expect(card.textContent, status).toContain('No active loans');
      expect(within(card).queryByTestId('loan-number'), status).toBeNull();
      // The one rule of the API: a closed application lets the member apply again.
      expect(within(card).getByRole('button', { name: 'Quick loan' }), status).toBeTruthy();
      again.unmount();
    }
  });

  it('shows an application under review as such, with the status message where the status is (issue 22, item 7)', () => {
    signedIn(VERIFIED);
    useLoans.setState({ items: [loanAnswer({ status: 'account_issue', statusMessage: 'Please upload a clearer photo of your ID.' })] });
    renderApp('/loan-app');
    const card = screen.getByRole('region', { name: 'Loan application' });
    expect(within(card).getByTestId('loan-status').textContent).toBe('Account issue');
    expect(within(card).getByTestId('loan-status-message').textContent).toBe('Please upload a clearer photo of your ID.');
    expect(screen.queryByText('Your account is verified')).toBeNull();
    expect(screen.queryByRole('region', { name: 'Active loan' })).toBeNull();
  });

  it('validates the application with each spec message once, then submits it', async () => {
    signedIn(VERIFIED);
    const created = loanAnswer({ status: 'pending', version: 70 });
    const fetchMock = routeFetch({
      'GET /api/rates': () => jsonResponse(fallbackRatesAnswer()),
      'POST /api/loans': () => jsonResponse(created, { status: 201 }),
      'GET /api/loans/user': () => jsonResponse([created]),
    });
    renderApp('/loan-app');
    fireEvent.click(screen.getByRole('button', { name: 'Quick loan' }));
    const dialog = await screen.findByRole('dialog', { name: 'Apply for a Loan' }, { timeout: 10_000 });
    expect(within(dialog).getByRole<HTMLInputElement>('slider', { name: 'Loan amount' }).value).toBe('80000');
    expect(within(dialog).getByLabelText<HTMLInputElement>(/^Amount/).value).toBe('80,000');
    expect(within(dialog).getByLabelText<HTMLInputElement>(/^Term/).value).toBe('12');

    const submit = () => fireEvent.click(within(dialog).getByRole('button', { name: 'Submit application' }));
    fireEvent.change(within(dialog).getByLabelText(/^Amount/), { target: { value: '50000' } });
    fireEvent.change(within(dialog).getByLabelText(/^Term/), { target: { value: '49' } });
    submit();
    for (const message of ['Minimum loan amount is ₱80,000', 'Please describe the purpose of the loan', 'Maximum term is 48 months']) {
      expect(within(dialog).getAllByText(message)).toHaveLength(1);
    }
    expect(document.activeElement).toBe(within(dialog).getByLabelText(/^Amount/));

    fireEvent.change(within(dialog).getByRole('slider', { name: 'Loan amount' }), { target: { value: '150000' } });
    fireEvent.change(within(dialog).getByLabelText('Purpose of Loan'), { target: { value: 'Tricycle for deliveries' } });
    fireEvent.change(within(dialog).getByLabelText(/^Term/), { target: { value: '12' } });
    await waitFor(() => expect(dialog.textContent).toContain('₱16,250.00'));
    submit();

    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Apply for a Loan' })).toBeNull());
    const post = fetchMock.mock.calls.findIndex(([, init]) => init?.method === 'POST');
    expect(requestOf(fetchMock, post)).toMatchObject({ url: '/api/loans', body: { amount: 150000, purpose: 'Tricycle for deliveries', termMonths: 12 } });
    expect(toasts()).toContainEqual({ title: 'Loan application submitted', description: 'Your loan application has been submitted for review.', variant: 'default' });
    await waitFor(() => expect(screen.getByTestId('loan-number').textContent).toBe('LN-2026-000123'));
  });

  it("says 'Application failed' with the server's message when the application is refused", async () => {
    signedIn(VERIFIED);
    routeFetch({
      'POST /api/loans': () => jsonResponse({ message: 'You already have a loan application. You can apply again once it is closed.', code: 'LOAN_EXISTS' }, { status: 409 }),
    });
    renderApp('/loan-app');
    fireEvent.click(screen.getByRole('button', { name: 'Quick loan' }));
    const dialog = await screen.findByRole('dialog', { name: 'Apply for a Loan' }, { timeout: 10_000 });
    fireEvent.change(within(dialog).getByLabelText('Purpose of Loan'), { target: { value: 'School fees' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Submit application' }));
    await waitFor(() => expect(toasts()).toEqual([{ title: 'Application failed', description: 'You already have a loan application. You can apply again once it is closed.', variant: 'destructive' }]));
    expect(screen.getByRole('dialog', { name: 'Apply for a Loan' })).toBeTruthy();
  });

  it('shows no regulator, SEC link or company details while none are configured (design §7)', async () => {
    signedIn(VERIFIED);
    renderApp('/loan-app');
    await screen.findByText(/Indicative rates/);
    expect(screen.queryByText('Check with SEC')).toBeNull();
    expect(screen.queryByText('Company details')).toBeNull();
    expect(screen.getByRole('region', { name: 'Partner Banks' }).textContent).toMatch(/BPI.*UnionBank.*GCash.*Maya.*CIMB Bank/);
  });

  it('shows them, with the Company Details dialog, once configured', () => {
    render(
      <OperatorDetails
        details={{
          companyName: 'Honeylend Lending Corp.',
          secRegistrationNumber: 'CS2026-0001',
          certificateOfAuthorityNumber: '3021',
          dateRegistered: '2026-01-05',
          status: 'Registered',
          address: 'Makati City',
          contact: 'help@honeylend.ph',
        }}
      />,
    );
    expect(screen.getByRole('link', { name: 'Check with SEC' }).getAttribute('rel')).toContain('noopener');
    fireEvent.click(screen.getByRole('button', { name: 'Company details' }));
    expect(screen.getByRole('dialog', { name: 'COMPANY DETAILS' }).textContent).toContain('CS2026-0001');
  });

  it('names the lender in a footer on every borrower page once GET /api/company answers its details (SEC MC 19)', async () => {
    routeFetch({
      'GET /api/company': () =>
        jsonResponse({
          companyName: 'Pulot Lending Corporation',
          secRegistrationNumber: 'CS202012345',
          certificateOfAuthorityNumber: '3456',
          dateRegistered: '2020-03-02',
          status: 'Registered',
          address: 'Taguig City',
          contact: 'help@pulot.ph',
        }),
    });
    signedIn(VERIFIED);
    useCompany.getState().clear();
    renderApp('/wallet');
    const footer = await screen.findByRole('contentinfo', { name: 'Lender' });
    expect(footer.textContent).toContain('Pulot Lending Corporation');
    expect(footer.textContent).toContain('SEC Registration No. CS202012345');
    expect(footer.textContent).toContain('Certificate of Authority No. 3456');
    expect(footer.textContent).toContain('Read the Disclosure Statement before you proceed');
  });

  it('draws no footer while GET /api/company answers {}', async () => {
    const fetchMock = routeFetch({ 'GET /api/company': () => jsonResponse({}) });
    signedIn(VERIFIED);
    useCompany.getState().clear();
    renderApp('/wallet');
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- the app calls fetch with string paths
    await waitFor(() => expect(fetchMock.mock.calls.some(([path]) => String(path) === '/api/company')).toBe(true));
    await act(async () => {});
    expect(screen.queryByRole('contentinfo', { name: 'Lender' })).toBeNull();
  });
});

describe('wallet (spec §2, design §7)', () => {
  it('hides the balance as dots until shown', () => {
    signedIn({ ...VERIFIED, balance: 80000 });
    renderApp('/wallet');
    expect(screen.getByTestId('wallet-balance').textContent).toBe('••••••');
    fireEvent.click(screen.getByRole('button', { name: 'Show balance' }));
    expect(screen.getByTestId('wallet-balance').textContent).toBe('₱80,000.00');
    expect(screen.getByRole('button', { name: 'Hide balance' }).getAttribute('aria-pressed')).toBe('true');
  });

  it("refuses 'Withdraw money' with no balance: 'Insufficient funds'", () => {
    signedIn({ ...VERIFIED, balance: 0 });
    renderApp('/wallet');
    fireEvent.click(screen.getByRole('button', { name: 'Withdraw money' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(toasts()).toEqual([{ title: 'Insufficient funds', description: 'Unavailable to request a withdrawal', variant: 'destructive' }]);
  });

  it('asks the server for a code, shows where it went, and confirms with the code and its challenge', async () => {
    signedIn({ ...VERIFIED, balance: 80000 });
    const withdrawal = withdrawalAnswer({ id: 'w1', withdrawalNumber: 'WD-2026-000001', amount: 5000, version: 90 });
    const fetchMock = routeFetch({
      'POST /api/withdrawals/otp': () => jsonResponse({ sentTo: '+63•••••4567', expiresAt: '2026-01-17T02:05:00.000Z', challengeId: '9d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6' }, { status: 202 }),
      'POST /api/withdrawals': () => jsonResponse(withdrawal, { status: 201 }),
      'GET /api/withdrawals': () => jsonResponse([withdrawal]),
    });
    renderApp('/wallet');
    fireEvent.click(screen.getByRole('button', { name: 'Withdraw money' }));
    const funds = screen.getByRole('dialog', { name: 'Withdraw Funds' });
    expect(funds.textContent).toContain('BPI ••••7890');
    const amount = within(funds).getByLabelText(/^Amount/);

    fireEvent.change(amount, { target: { value: '999' } });
    fireEvent.click(within(funds).getByRole('button', { name: 'Request withdrawal' }));
    expect(within(funds).getByText('Minimum withdrawal amount is ₱1,000')).toBeTruthy();

    fireEvent.change(amount, { target: { value: '80000.01' } });
    fireEvent.click(within(funds).getByRole('button', { name: 'Request withdrawal' }));
    expect(toasts()[0]).toMatchObject({ title: 'Insufficient funds', variant: 'destructive' });
    expect(fetchMock).not.toHaveBeenCalledWith('/api/withdrawals/otp', expect.anything());

    fireEvent.change(amount, { target: { value: '5000' } });
    fireEvent.click(within(funds).getByRole('button', { name: 'Request withdrawal' }));
    const otpDialog = await screen.findByRole('dialog', { name: 'Enter OTP Code' });
    expect(within(otpDialog).getByTestId('otp-sent-to').textContent).toBe('+63•••••4567');
    expect(requestOf(fetchMock, 0)).toMatchObject({ url: '/api/withdrawals/otp', body: { amount: 5000 } });

    const otp = within(otpDialog).getByLabelText('OTP code');
    fireEvent.change(otp, { target: { value: '12a45' } });
    expect((otp as HTMLInputElement).value).toBe('1245');
    fireEvent.click(within(otpDialog).getByRole('button', { name: 'Verify OTP' }));
    expect(within(otpDialog).getByText('OTP must be exactly 6 digits')).toBeTruthy();

    fireEvent.change(otp, { target: { value: '123456' } });
    fireEvent.click(within(otpDialog).getByRole('button', { name: 'Verify OTP' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(requestOf(fetchMock, 1)).toMatchObject({
      url: '/api/withdrawals',
      body: { amount: 5000, bankName: 'BPI', bankAccountNumber: '1234567890', otp: '123456', challengeId: '9d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6' },
    });
    // Design §7: requested, pending review — never "approved" or "on its way" before an admin completes it.
    expect(toasts()[0]).toMatchObject({ title: 'Withdrawal requested' });
    expect(toasts()[0]?.description).toContain('is pending review');
    expect(toasts()[0]?.description).toContain('Nothing has been sent yet');
    expect(toasts()[0]?.description).not.toMatch(/approved|processed successfully/);
    const listed = await screen.findByTestId('withdrawal');
    expect(listed.textContent).toContain('WD-2026-000001');
    expect(within(listed).getByTestId('withdrawal-note').textContent).toBe('Requested: pending review. Nothing has been sent yet.');
    // Once an admin completes it (pushed live), and only then, it is on its way.
    act(() => useWithdrawals.getState().apply({ ...withdrawal, status: 'completed', version: 999, payoutReference: 'IP-2026-0042' }));
    await waitFor(() => expect(screen.getAllByTestId('withdrawal-note').some((note) => note.textContent?.startsWith('Sent: on its way to your bank.'))).toBe(true));
  });

  it('shows a refused code in the OTP dialog only (no "Withdrawal failed" toast), and Cancel forgets the request', async () => {
    signedIn({ ...VERIFIED, balance: 80000 });
    routeFetch({
      'POST /api/withdrawals/otp': () => jsonResponse({ sentTo: '+63•••••4567', expiresAt: '2026-01-17T02:05:00.000Z', challengeId: '9d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6' }, { status: 202 }),
      'POST /api/withdrawals': () => jsonResponse({ message: 'Invalid OTP code', code: 'OTP_INVALID', details: { fields: { otp: 'Invalid OTP code' } } }, { status: 400 }),
    });
    renderApp('/wallet');
    fireEvent.click(screen.getByRole('button', { name: 'Withdraw money' }));
    fireEvent.change(screen.getByLabelText(/^Amount/), { target: { value: '2000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Request withdrawal' }));
    const otpDialog = await screen.findByRole('dialog', { name: 'Enter OTP Code' });
    fireEvent.change(within(otpDialog).getByLabelText('OTP code'), { target: { value: '000000' } });
    fireEvent.click(within(otpDialog).getByRole('button', { name: 'Verify OTP' }));
    await within(otpDialog).findByText('Invalid OTP code');
    expect(toasts()).toEqual([]);

    fireEvent.click(within(otpDialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Withdraw money' }));
    expect(screen.getByRole('dialog', { name: 'Withdraw Funds' })).toBeTruthy();
  });

  it("says 'No internet — nothing was sent' when the code request cannot reach the server", async () => {
    signedIn({ ...VERIFIED, balance: 80000 });
    routeFetch({
      'POST /api/withdrawals/otp': () => Promise.reject(new TypeError('Failed to fetch')),
    });
    renderApp('/wallet');
    fireEvent.click(screen.getByRole('button', { name: 'Withdraw money' }));
    fireEvent.change(screen.getByLabelText(/^Amount/), { target: { value: '2000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Request withdrawal' }));
    await waitFor(() => expect(toasts()[0]).toEqual({ title: 'No internet — nothing was sent', description: 'Check your connection and try again.', variant: 'destructive' }));
    expect(screen.getByRole('dialog', { name: 'Withdraw Funds' })).toBeTruthy();
  });

  it("shows that loan's own latest notice on the Loan application card — never a withdrawal's — or the default message", () => {
    signedIn(VERIFIED);
    useLoans.setState({ items: [loanAnswer({ status: 'pending' })] });
    renderApp('/wallet');
    expect(screen.getByTestId('loan-message').textContent).toBe('Your loan application is under review. We will tell you here and by text as soon as it is decided.');
    act(() => useNotifications.getState().apply(notificationAnswer({ message: 'Please upload a clearer photo of your ID.' })));
    expect(screen.getByTestId('loan-message').textContent).toBe('Please upload a clearer photo of your ID.');
    // A newer notification about a withdrawal, or about another loan, is not this loan's notice.
    act(() =>
      useNotifications.getState().apply(
        notificationAnswer({
          id: 'c3d4e5f6-0000-4000-8000-000000000002',
          type: 'withdrawal_update',
          title: 'Withdrawal sent',
          message: 'Your withdrawal WD-2026-000007 of ₱5,000.00 has been sent.',
          createdAt: '2026-01-17T02:00:00.000Z',
          version: 60,
        }),
      ),
    );
    act(() =>
      useNotifications
        .getState()
        .apply(
          notificationAnswer({ id: 'c3d4e5f6-0000-4000-8000-000000000003', title: 'Loan LN-2026-000099 update', message: 'Your loan LN-2026-000099 is complete.', createdAt: '2026-01-18T02:00:00.000Z', version: 61 }),
        ),
    );
    expect(screen.getByTestId('loan-message').textContent).toBe('Please upload a clearer photo of your ID.');
    const preview = screen.getByRole('region', { name: 'Loan Preview' });
    for (const text of ['₱100,000.00', '12 months', '2.5% per month', '₱10,833.33', '₱30,000.00']) expect(preview.textContent).toContain(text);
  });
});

describe('cancelling an application (issue 17, item 5)', () => {
  it('offers Cancel application while the application is under review, asks first, and shows it cancelled from the answer', async () => {
    signedIn(VERIFIED);
    const pending = loanAnswer({ status: 'pending', version: 40 });
    const fetchMock = routeFetch({ [`POST /api/loans/${pending.id}/cancellation`]: () => jsonResponse(loanAnswer({ status: 'cancelled', version: 41, updatedAt: '2026-01-17T02:00:00.000Z' })) });
    useLoans.setState({ items: [pending] });
    renderApp('/wallet');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel application' }));
    const confirm = screen.getByRole('dialog', { name: 'Cancel this application?' });
    // "Keep my application" changes nothing.
    fireEvent.click(within(confirm).getByRole('button', { name: 'Keep my application' }));
    expect(fetchMock).not.toHaveBeenCalledWith(`/api/loans/${pending.id}/cancellation`, expect.anything());

    fireEvent.click(screen.getByRole('button', { name: 'Cancel application' }));
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Cancel this application?' })).getByRole('button', { name: 'Yes, cancel it' }));
    await waitFor(() => expect(screen.getByTestId('wallet-loan-status').textContent).toBe('Cancelled'));
    expect(fetchMock.mock.calls.filter(([url, init]) => url === `/api/loans/${pending.id}/cancellation` && init?.method === 'POST')).toHaveLength(1);
    expect(screen.getByTestId('loan-message').textContent).toBe('You cancelled this application. You may apply again.');
    expect(screen.queryByRole('button', { name: 'Cancel application' })).toBeNull();
    expect(toasts()[0]).toMatchObject({ title: 'Application cancelled' });
  });

  it('does not offer it once the loan was approved, and says why when the server refuses (approved meanwhile)', async () => {
    signedIn(VERIFIED);
    useLoans.setState({ items: [loanAnswer({ status: 'approved' })] });
    const view = renderApp('/wallet');
    expect(screen.queryByRole('button', { name: 'Cancel application' })).toBeNull();
    view.unmount();

    const pending = loanAnswer({ status: 'pending' });
    routeFetch({
      [`POST /api/loans/${pending.id}/cancellation`]: () =>
        jsonResponse({ message: 'Only an application still under review can be cancelled; this loan is approved.', code: 'LOAN_NOT_CANCELLABLE', currentStatus: 'approved' }, { status: 409 }),
      'GET /api/loans/user': () => jsonResponse([loanAnswer({ status: 'approved', version: 99 })]),
    });
    useLoans.setState({ items: [pending] });
    renderApp('/wallet');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel application' }));
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Cancel this application?' })).getByRole('button', { name: 'Yes, cancel it' }));
    await waitFor(() => expect(toasts()[0]).toMatchObject({ title: 'Application not cancelled', description: 'Only an application still under review can be cancelled; this loan is approved.', variant: 'destructive' }));
    await waitFor(() => expect(screen.getByTestId('wallet-loan-status').textContent).toBe('Approved'));
  });
});

describe('profile (spec §2)', () => {
  it('opens the personal information form with the spec messages while incomplete', () => {
    signedIn();
    renderApp('/profile');
    fireEvent.click(screen.getByRole('button', { name: 'Complete personal information' }));
    const form = screen.getByRole('dialog', { name: 'Personal Information' });
    fireEvent.change(within(form).getByLabelText(/^Email/), { target: { value: 'not-an-email' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    for (const message of [
      'Valid email is required',
      'Address is required',
      'Country of work is required',
      'Monthly salary is required',
      'Reference name is required',
      'Reference phone is required',
      'Bank name is required',
      'Account number is required',
    ]) {
      expect(within(form).getAllByText(message)).toHaveLength(1);
    }
  });

  it('offers the Philippine banks and e-wallets for the bank name, and says another can be typed (issue 22, item 18)', () => {
    signedIn();
    renderApp('/profile');
    fireEvent.click(screen.getByRole('button', { name: 'Complete personal information' }));
    const bankName = within(screen.getByRole('dialog', { name: 'Personal Information' })).getByLabelText<HTMLInputElement>('Bank name');
    expect(bankName.placeholder).toBe('Pick from the list or type it');
    const offered = [...(bankName.list?.options ?? [])].map((option) => option.value);
    expect(offered).toEqual(expect.arrayContaining(['BDO Unibank', 'Land Bank of the Philippines', 'GCash', 'Maya']));
    expect(offered).toHaveLength(20);
  });

  it('accepts a salary typed as "₱25,000" and sends it for the server to read (issue 22, item 6)', async () => {
    signedIn();
    const fetchMock = routeFetch({ 'PUT /api/user/profile': () => jsonResponse(memberAnswer({ ...VERIFIED, monthlySalary: 25000, version: 99 })) });
    renderApp('/profile');
    fireEvent.click(screen.getByRole('button', { name: 'Complete personal information' }));
    const form = screen.getByRole('dialog', { name: 'Personal Information' });
    const typed: Record<string, string> = {
      Address: '1 Calle Real, Iloilo City',
      'Country of work': 'Philippines',
      'Monthly salary (₱)': '₱25,000',
      'Reference name': 'Jose Santos',
      'Reference phone': '09181234567',
      'Bank name': 'BPI',
      'Account number': '1234567890',
    };
    for (const [label, value] of Object.entries(typed)) fireEvent.change(within(form).getByLabelText(label), { target: { value } });
    // Shown with its separator as typed (issue 22, item 19), kept and sent as the bare amount.
    expect(within(form).getByLabelText<HTMLInputElement>('Monthly salary (₱)').value).toBe('25,000');
    fireEvent.change(within(form).getByLabelText('Monthly salary (₱)'), { target: { value: '250005' } });
    expect(within(form).getByLabelText<HTMLInputElement>('Monthly salary (₱)').value).toBe('250,005');
    fireEvent.change(within(form).getByLabelText('Monthly salary (₱)'), { target: { value: '25,000' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(within(form).queryByText('Monthly salary is required')).toBeNull();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Personal Information' })).toBeNull());
    const put = fetchMock.mock.calls.findIndex(([, init]) => init?.method === 'PUT');
    expect(requestOf(fetchMock, put).body).toMatchObject({ monthlySalary: '25000' });
  });

  it("offers 'View more' once complete, and the No Loan Application dialog without a loan", async () => {
    signedIn(VERIFIED);
    const view = renderApp('/profile');
    fireEvent.click(screen.getByRole('button', { name: 'View more' }));
    expect(screen.getByRole('dialog', { name: 'Personal Information' }).textContent).toContain('123 Rizal Avenue, Manila');
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Close' }));

    fireEvent.click(screen.getByRole('button', { name: 'Payment schedule' }));
    const none = screen.getByRole('dialog', { name: 'No Loan Application' });
    fireEvent.click(within(none).getByRole('button', { name: 'Apply now' }));
    expect(view.location()).toBe('/loan-app');
    // Issue 22 item 12: Apply now lands on the application, not mid-dashboard.
    expect(await screen.findByRole('dialog', { name: 'Apply for a Loan' })).toBeTruthy();
  });

  it('shows the credit badge, the contract and the schedule of the loan in focus', () => {
    signedIn({ ...VERIFIED, creditScore: 640, creditTier: { label: 'Good Credit', stars: 3 } });
    useLoans.setState({ items: [loanAnswer({ status: 'approved' })] });
    renderApp('/profile');
    expect(screen.getByTestId('credit-badge').textContent).toContain('Good Credit');
    expect(screen.getByText('Verified account')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Loan contract' }));
    const contract = screen.getByRole('dialog', { name: 'Loan contract' });
    for (const text of ['Truth in Lending Act', '₱30,000.00', '₱130,000.00', 'Maria Santos']) expect(contract.textContent).toContain(text);
  });

  it('names the lender in the loan contract with its SEC registration and Certificate of Authority once the company details are set (issue 17, item 2)', () => {
    signedIn(VERIFIED);
    useLoans.setState({ items: [loanAnswer({ status: 'approved' })] });
    useCompany.setState({
      company: {
        companyName: 'Pulot Lending Corporation',
        secRegistrationNumber: 'CS202012345',
        certificateOfAuthorityNumber: '3456',
        dateRegistered: '2020-03-02',
        status: 'Registered',
        address: 'Taguig City',
        contact: 'help@pulot.ph',
      },
      status: 'ready',
    });
    try {
      renderApp('/profile');
      fireEvent.click(screen.getByRole('button', { name: 'Loan contract' }));
      expect(screen.getByRole('dialog', { name: 'Loan contract' }).textContent).toContain('Pulot Lending Corporation, SEC Registration No. CS202012345, Certificate of Authority No. 3456, Taguig City');
    } finally {
      useCompany.getState().clear();
    }
  });
});

describe('side menu for staff', () => {
  it('tells an admin that the admin panel is desktop only', () => {
    useSession.setState({ user: null, staffRole: 'admin', loading: false });
    renderApp('/');
    fireEvent.click(screen.getByRole('button', { name: 'Open menu' }));
    expect(screen.getByRole('note').textContent).toContain('desktop only');
  });
});
