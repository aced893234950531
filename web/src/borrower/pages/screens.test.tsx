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
    fireEvent.click(within(dialog).getByRole('button', { name: 'VERIFY NOW' }));
    expect(view.location()).toBe('/profile');
  });

  it('shows the loan in focus (approved before the first) with View Loan Status instead of Quick loan', () => {
    signedIn(VERIFIED);
    useLoans.setState({ items: [loanAnswer({ id: 'newer', loanNumber: 'LN-2026-000200', status: 'pending' }), loanAnswer({ loanNumber: 'LN-2026-000123', status: 'approved' })] });
    renderApp('/loan-app');
    const card = screen.getByRole('region', { name: 'Active loan' });
    expect(within(card).getByTestId('loan-number').textContent).toBe('LN-2026-000123');
    expect(within(card).getByTestId('loan-status').textContent).toBe('Approved');
    expect(card.textContent).toContain('₱100,000.00');
    expect(within(card).getByRole('link', { name: 'View Loan Status' }).getAttribute('href')).toBe('/wallet');
    expect(within(card).queryByRole('button', { name: 'Quick loan' })).toBeNull();
    expect(screen.getByText('Your account is verified')).toBeTruthy();
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
    const dialog = screen.getByRole('dialog', { name: 'Apply for a Loan' });
    expect((within(dialog).getByRole('slider', { name: 'Loan amount' }) as HTMLInputElement).value).toBe('80000');
    expect((within(dialog).getByLabelText(/^Amount/) as HTMLInputElement).value).toBe('80000');
    expect((within(dialog).getByLabelText(/^Term/) as HTMLInputElement).value).toBe('12');

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
    expect(dialog.textContent).toContain('₱16,250.00');
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
      'POST /api/loans': () =>
        jsonResponse({ message: 'You already have a loan application. You can apply again once it is closed.', code: 'LOAN_EXISTS' }, { status: 409 }),
    });
    renderApp('/loan-app');
    fireEvent.click(screen.getByRole('button', { name: 'Quick loan' }));
    const dialog = screen.getByRole('dialog', { name: 'Apply for a Loan' });
    fireEvent.change(within(dialog).getByLabelText('Purpose of Loan'), { target: { value: 'School fees' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Submit application' }));
    await waitFor(() =>
      expect(toasts()).toEqual([{ title: 'Application failed', description: 'You already have a loan application. You can apply again once it is closed.', variant: 'destructive' }]),
    );
    expect(screen.getByRole('dialog', { name: 'Apply for a Loan' })).toBeTruthy();
  });

  it('shows no regulator, SEC link or company details while none are configured (design §7)', async () => {
    signedIn(VERIFIED);
    renderApp('/loan-app');
    await screen.findByText(/Indicative rates/);
    expect(screen.queryByText('Check with SEC')).toBeNull();
    expect(screen.queryByText('COMPANY DETAILS')).toBeNull();
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
    fireEvent.click(screen.getByRole('button', { name: 'COMPANY DETAILS' }));
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
      'POST /api/withdrawals/otp': () =>
        jsonResponse({ sentTo: '+63•••••4567', expiresAt: '2026-01-17T02:05:00.000Z', challengeId: '9d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6' }, { status: 202 }),
      'POST /api/withdrawals': () => jsonResponse(withdrawal, { status: 201 }),
      'GET /api/withdrawals': () => jsonResponse([withdrawal]),
    });
    renderApp('/wallet');
    fireEvent.click(screen.getByRole('button', { name: 'Withdraw money' }));
    const funds = screen.getByRole('dialog', { name: 'Withdraw Funds' });
    expect(funds.textContent).toContain('BPI ••••7890');
    const amount = within(funds).getByLabelText(/^Amount/);

    fireEvent.change(amount, { target: { value: '999' } });
    fireEvent.click(within(funds).getByRole('button', { name: 'Request Withdrawal' }));
    expect(within(funds).getByText('Minimum withdrawal amount is ₱1,000')).toBeTruthy();

    fireEvent.change(amount, { target: { value: '80000.01' } });
    fireEvent.click(within(funds).getByRole('button', { name: 'Request Withdrawal' }));
    expect(toasts()[0]).toMatchObject({ title: 'Insufficient funds', variant: 'destructive' });
    expect(fetchMock).not.toHaveBeenCalledWith('/api/withdrawals/otp', expect.anything());

    fireEvent.change(amount, { target: { value: '5000' } });
    fireEvent.click(within(funds).getByRole('button', { name: 'Request Withdrawal' }));
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
    expect(toasts()[0]).toMatchObject({ title: 'Withdrawal approved' });
    expect(toasts()[0]?.description).toContain('processed successfully');
    expect((await screen.findByTestId('withdrawal')).textContent).toContain('WD-2026-000001');
  });

  it("shows a refused code in the OTP dialog with 'Withdrawal failed', and Cancel forgets the request", async () => {
    signedIn({ ...VERIFIED, balance: 80000 });
    routeFetch({
      'POST /api/withdrawals/otp': () => jsonResponse({ sentTo: '+63•••••4567', expiresAt: '2026-01-17T02:05:00.000Z', challengeId: '9d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6' }, { status: 202 }),
      'POST /api/withdrawals': () => jsonResponse({ message: 'Invalid OTP code', code: 'OTP_INVALID', details: { fields: { otp: 'Invalid OTP code' } } }, { status: 400 }),
    });
    renderApp('/wallet');
    fireEvent.click(screen.getByRole('button', { name: 'Withdraw money' }));
    fireEvent.change(screen.getByLabelText(/^Amount/), { target: { value: '2000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Request Withdrawal' }));
    const otpDialog = await screen.findByRole('dialog', { name: 'Enter OTP Code' });
    fireEvent.change(within(otpDialog).getByLabelText('OTP code'), { target: { value: '000000' } });
    fireEvent.click(within(otpDialog).getByRole('button', { name: 'Verify OTP' }));
    await within(otpDialog).findByText('Invalid OTP code');
    expect(toasts()[0]).toEqual({ title: 'Withdrawal failed', description: 'Invalid OTP code', variant: 'destructive' });

    fireEvent.click(within(otpDialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Withdraw money' }));
    expect(screen.getByRole('dialog', { name: 'Withdraw Funds' })).toBeTruthy();
  });

  it('shows the latest notification on the Loan Application card, or the default message', () => {
    signedIn(VERIFIED);
    useLoans.setState({ items: [loanAnswer({ status: 'pending' })] });
    renderApp('/wallet');
    expect(screen.getByTestId('loan-message').textContent).toBe(
      'Your loan application is under review. Please contact your loan officer for approval process',
    );
    act(() => useNotifications.getState().apply(notificationAnswer({ message: 'Please upload a clearer photo of your ID.' })));
    expect(screen.getByTestId('loan-message').textContent).toBe('Please upload a clearer photo of your ID.');
    const preview = screen.getByRole('region', { name: 'Loan Preview' });
    for (const text of ['₱100,000.00', '12 months', '2.5% per month', '₱10,833.33', '₱30,000.00']) expect(preview.textContent).toContain(text);
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

  it("offers 'View More' once complete, and the No Loan Application dialog without a loan", () => {
    signedIn(VERIFIED);
    const view = renderApp('/profile');
    fireEvent.click(screen.getByRole('button', { name: 'View More' }));
    expect(screen.getByRole('dialog', { name: 'Personal Information' }).textContent).toContain('123 Rizal Avenue, Manila');
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Close' }));

    fireEvent.click(screen.getByRole('button', { name: 'Payment Schedule' }));
    const none = screen.getByRole('dialog', { name: 'No Loan Application' });
    fireEvent.click(within(none).getByRole('button', { name: 'APPLY NOW' }));
    expect(view.location()).toBe('/loan-app');
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
});

describe('side menu for staff', () => {
  it('tells an admin that the admin panel is desktop only', () => {
    useSession.setState({ user: null, staffRole: 'admin', loading: false });
    renderApp('/');
    fireEvent.click(screen.getByRole('button', { name: 'Open menu' }));
    expect(screen.getByRole('note').textContent).toContain('desktop only');
  });
});
