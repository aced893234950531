import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { UserAnswer } from '@honeylend/contracts';
import { useToasts } from '../../shared/toast/toastStore';
import { jsonResponse, memberAnswer, mockFetch, requestOf } from '../../testing/http';
import { renderApp } from '../../testing/renderApp';
import { useLoans } from '../stores/loans';
import { useNotifications } from '../stores/notifications';
import { useSession } from '../stores/session';

/** Issue 14: change password, forgot password, sign out everywhere and confirming the phone, on the borrower's screens. */
const VERIFIED: Partial<UserAnswer> = { personalInfoComplete: true, documentsComplete: true, verified: true, phoneVerified: false };

function signedIn(overrides: Partial<UserAnswer> = {}) {
  localStorage.setItem('token', 'jwt-abc');
  useSession.setState({ user: memberAnswer(overrides), loading: false });
  useLoans.setState({ status: 'ready' });
  useNotifications.setState({ status: 'ready' });
}

function fill(scope: HTMLElement, label: string | RegExp, value: string) {
  fireEvent.change(within(scope).getByLabelText(label), { target: { value } });
}

const toastTitles = () =>
  useToasts
    .getState()
    .toasts.filter((shown) => shown.open)
    .map((shown) => shown.title);

beforeEach(() => {
  useSession.setState({ user: null, loading: false });
  localStorage.clear();
});

describe('forgot password (sign-in page)', () => {
  it('texts a code to the number, then sets the new password with it', async () => {
    const fetchMock = mockFetch(
      jsonResponse({ success: true, message: 'If this number has a Honeylend account, we have texted it a code. Enter it with your new password.' }, { status: 202 }),
      jsonResponse({ success: true, message: 'Your password is changed. Sign in with your new password.' }),
    );
    renderApp('/app-login');
    fireEvent.click(screen.getByRole('button', { name: 'Forgot password?' }));
    const dialog = screen.getByRole('dialog', { name: 'Forgot password' });
    fill(dialog, 'Phone number', '0917 123 4567');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Text me a code' }));
    await within(dialog).findByLabelText('Code');
    expect(requestOf(fetchMock)).toMatchObject({ url: '/api/auth/password-reset/request', method: 'POST', body: { phone: '0917 123 4567' } });
    expect(dialog.textContent).toContain('If this number has a Honeylend account');

    fireEvent.click(within(dialog).getByRole('button', { name: 'Set new password' }));
    expect(within(dialog).getByText('Enter the 6-digit code we texted you')).toBeTruthy();
    // A code pasted as the SMS spaced it reaches the field whole (a 6-character limit cut it to "123 45") and is read as its digits.
    const code = within(dialog).getByLabelText<HTMLInputElement>('Code');
    expect(code.maxLength).toBeGreaterThanOrEqual('123 456'.length);
    fill(dialog, 'Code', '123 456');
    expect(code.value).toBe('123456');
    fill(dialog, /^New password/, 'Mangga#Hinog2027');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Set new password' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Forgot password' })).toBeNull());
    expect(requestOf(fetchMock, 1)).toMatchObject({ url: '/api/auth/password-reset/confirm', body: { phone: '0917 123 4567', code: '123456', newPassword: 'Mangga#Hinog2027' } });
    expect(toastTitles()).toContain('Password changed');
  });

  it("shows the server's message on the code field when the code is wrong", async () => {
    mockFetch(
      jsonResponse({ success: true, message: 'If this number has a Honeylend account, we have texted it a code.' }, { status: 202 }),
      jsonResponse({ message: 'This code is not right', code: 'CODE_INVALID', details: { fields: { code: 'This code is not right' } } }, { status: 400 }),
    );
    renderApp('/app-login');
    fireEvent.click(screen.getByRole('button', { name: 'Forgot password?' }));
    const dialog = screen.getByRole('dialog', { name: 'Forgot password' });
    fill(dialog, 'Phone number', '09171234567');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Text me a code' }));
    await within(dialog).findByLabelText('Code');
    fill(dialog, 'Code', '000000');
    fill(dialog, /^New password/, 'Mangga#Hinog2027');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Set new password' }));
    expect(await within(dialog).findByText('This code is not right')).toBeTruthy();
  });
});

describe('account security (profile)', () => {
  it('changes the password and keeps the session with the new token', async () => {
    signedIn(VERIFIED);
    const fetchMock = mockFetch(
      jsonResponse({ message: 'Your current password is not right', code: 'CURRENT_PASSWORD_WRONG', details: { fields: { currentPassword: 'Your current password is not right' } } }, { status: 400 }),
      jsonResponse({ success: true, message: 'Your password is changed.', token: 'jwt-new' }),
    );
    renderApp('/profile');
    fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
    const dialog = screen.getByRole('dialog', { name: 'Change password' });
    fill(dialog, 'Current password', 'not-mine');
    fill(dialog, /^New password/, 'Kalamansi#2027');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Change password' }));
    expect(await within(dialog).findByText('Your current password is not right')).toBeTruthy();
    fill(dialog, 'Current password', 'Sampaguita#2026');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Change password' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Change password' })).toBeNull());
    expect(requestOf(fetchMock, 1)).toMatchObject({ url: '/api/user/password', body: { currentPassword: 'Sampaguita#2026', newPassword: 'Kalamansi#2027' } });
    expect(localStorage.getItem('token')).toBe('jwt-new');
    expect(useSession.getState().user).not.toBeNull();
  });

  it('signs out everywhere after asking, and ends this session too', async () => {
    signedIn(VERIFIED);
    const fetchMock = mockFetch(jsonResponse({ success: true, message: 'You are signed out on every device.' }));
    renderApp('/profile');
    fireEvent.click(screen.getByRole('button', { name: 'Sign out everywhere' }));
    const confirm = screen.getByRole('dialog', { name: 'Sign out everywhere?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Sign out everywhere' }));
    await waitFor(() => expect(useSession.getState().user).toBeNull());
    expect(requestOf(fetchMock)).toMatchObject({ url: '/api/auth/logout-everywhere', method: 'POST' });
    expect(localStorage.getItem('token')).toBeNull();
    expect(toastTitles()).toContain('Signed out everywhere');
  });

  it('confirms the phone with the texted code, and the profile says so', async () => {
    signedIn(VERIFIED);
    const fetchMock = mockFetch(jsonResponse({ sentTo: '+63•••••4567', expiresAt: '2026-11-25T10:10:00.000Z' }, { status: 202 }), jsonResponse(memberAnswer({ ...VERIFIED, phoneVerified: true, version: 20 })));
    renderApp('/profile');
    expect(screen.getByText(/One more step: confirm your phone number/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Confirm phone' }));
    const dialog = screen.getByRole('dialog', { name: 'Confirm your phone' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Text me a code' }));
    await within(dialog).findByLabelText('Code');
    expect(dialog.textContent).toContain('+63•••••4567');
    fill(dialog, 'Code', '654321');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm phone' }));
    await waitFor(() => expect(useSession.getState().user?.phoneVerified).toBe(true));
    expect(requestOf(fetchMock, 1)).toMatchObject({ url: '/api/user/phone-verification/confirm', body: { code: '654321' } });
    expect(await screen.findByText('Phone confirmed', { selector: '.status-badge' })).toBeTruthy();
    expect(screen.getByText('Verified account')).toBeTruthy();
  });
});

describe('dashboard: the phone step before a first loan', () => {
  it('sends a verified member whose phone is not confirmed from Quick loan to confirm it', () => {
    signedIn(VERIFIED);
    const view = renderApp('/loan-app');
    expect(screen.getByText('One more step: confirm your phone number with the code we text you.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Quick loan' }));
    const dialog = screen.getByRole('dialog', { name: 'Confirm Your Phone' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Verify now' }));
    expect(view.location()).toBe('/profile');
  });
});
