import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fullPageRedirect } from '../../shared/fullPageRedirect';
import { useToasts } from '../../shared/toast/toastStore';
import { jsonResponse, memberAnswer, mockFetch, requestOf } from '../../testing/http';
import { renderApp } from '../../testing/renderApp';
import { useSession } from '../stores/session';
import { primePrivacyNotice } from '../privacy/privacyApi';

const NOTICE = { version: 'notice-test-1', text: 'PRIVACY NOTICE (version notice-test-1)\n\nWhat we collect: your name and number.', dataProtectionOfficer: null };

vi.mock('../../shared/fullPageRedirect', () => ({ fullPageRedirect: vi.fn() }));

beforeEach(() => {
  useSession.setState({ user: null, loading: false });
  primePrivacyNotice(NOTICE);
});

async function acceptPrivacyNotice() {
  // The notice is drawn (from the primed fetch) before its box can be ticked.
  await screen.findByTestId('privacy-notice');
  fireEvent.click(screen.getByRole('checkbox', { name: /I have read the privacy notice/ }));
}

function fill(label: string | RegExp, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

function proceed() {
  fireEvent.click(screen.getByRole('button', { name: 'Proceed' }));
}

function errorOf(label: string | RegExp): string | null {
  const input = screen.getByLabelText(label);
  const ids = input.getAttribute('aria-describedby')?.split(' ') ?? [];
  const error = ids.map((id) => document.getElementById(id)).find((node) => node?.classList.contains('field__error'));
  return error?.textContent ?? null;
}

function toastTitles() {
  return useToasts
    .getState()
    .toasts.filter((shown) => shown.open)
    .map((shown) => shown.title);
}

async function fillRegistration() {
  fill('Full name', 'Maria Santos');
  fill('Phone number', '0917 123 4567');
  fill(/^Email/, 'maria@example.ph');
  fill('Password', 'secret1');
  await acceptPrivacyNotice();
}

describe('sign-in form', () => {
  it("shows the spec's messages and sends nothing when the fields are too short", () => {
    const fetchMock = mockFetch();
    renderApp('/app-login');

    fill('Phone number', '091712');
    fill('Password', '12345');
    proceed();

    expect(errorOf('Phone number')).toBe('Phone number is required');
    expect(errorOf('Password')).toBe('Password must be at least 6 characters');
    expect(screen.getByLabelText('Phone number').getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(screen.getByLabelText('Phone number'));
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('clears a field message as soon as the field is corrected', () => {
    renderApp('/login');
    proceed();
    expect(errorOf('Phone number')).toBe('Phone number is required');

    fill('Phone number', '09171234567');

    expect(errorOf('Phone number')).toBeNull();
    expect(errorOf('Password')).toBe('Password must be at least 6 characters');
  });

  it('shows and hides the password', () => {
    renderApp('/app-login');
    const password = screen.getByLabelText('Password');
    expect(password.getAttribute('type')).toBe('password');

    fireEvent.click(screen.getByRole('button', { name: 'Show password' }));
    expect(password.getAttribute('type')).toBe('text');

    fireEvent.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(password.getAttribute('type')).toBe('password');
  });

  it("signs in, says 'Login successful' and reloads into /loan-app after half a second", async () => {
    const fetchMock = mockFetch(jsonResponse({ success: true, token: 'jwt-new', user: memberAnswer() }));
    renderApp('/app-login');

    fill('Phone number', '0917-123-4567');
    fill('Password', 'secret1');
    proceed();

    await waitFor(() => expect(toastTitles()).toEqual(['Login successful']));
    expect(requestOf(fetchMock).body).toEqual({ phone: '+639171234567', password: 'secret1' });
    expect(localStorage.getItem('token')).toBe('jwt-new');
    expect(fullPageRedirect).not.toHaveBeenCalled();
    await waitFor(() => expect(fullPageRedirect).toHaveBeenCalledWith('/loan-app'));
  });

  it('returns to the member page it was drawn on after signing in (issue 22, item 18)', async () => {
    mockFetch(jsonResponse({ success: true, token: 'jwt-new', user: memberAnswer() }));
    renderApp('/wallet');
    fill('Phone number', '0917-123-4567');
    fill('Password', 'secret1');
    proceed();
    await waitFor(() => expect(fullPageRedirect).toHaveBeenCalledWith('/wallet'));
  });

  it('shows the server message when the credentials are refused', async () => {
    mockFetch(jsonResponse({ message: 'Invalid phone number or password', code: 'INVALID_CREDENTIALS' }, { status: 401 }));
    renderApp('/app-login');

    fill('Phone number', '09171234567');
    fill('Password', 'wrong-password');
    proceed();

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Login failed');
    expect(alert.textContent).toContain('Invalid phone number or password');
    expect(screen.getByRole('button', { name: 'Proceed' })).toHaveProperty('disabled', false);
    expect(fullPageRedirect).not.toHaveBeenCalled();
  });

  it("says 'Please wait...' and blocks a second submit while signing in", async () => {
    let answer: (response: Response) => void = () => undefined;
    const fetchMock = vi.fn<typeof fetch>(() => new Promise<Response>((resolve) => (answer = resolve)));
    vi.stubGlobal('fetch', fetchMock);
    renderApp('/app-login');

    fill('Phone number', '09171234567');
    fill('Password', 'secret1');
    proceed();

    const waiting = await screen.findByRole('button', { name: 'Please wait...' });
    expect(waiting).toHaveProperty('disabled', true);
    fireEvent.submit(waiting.closest('form')!);
    expect(fetchMock).toHaveBeenCalledTimes(1);

    await act(async () => answer(jsonResponse({ message: 'Too many attempts, try again later' }, { status: 429 })));
    expect(await screen.findByRole('button', { name: 'Proceed' })).toBeTruthy();
  });
});

describe('registration form', () => {
  it('opens in registration mode from ?register=true', () => {
    renderApp('/app-login?register=true');
    expect(screen.getByLabelText('Full name')).toBeTruthy();
    expect(screen.getByLabelText(/^Email/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Register' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('switches between sign in and register', () => {
    const view = renderApp('/app-login');
    expect(screen.queryByLabelText('Full name')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Register' }));
    expect(screen.getByLabelText('Full name')).toBeTruthy();
    expect(view.location()).toBe('/app-login?register=true');

    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.queryByLabelText('Full name')).toBeNull();
    expect(view.location()).toBe('/app-login');
  });

  it("shows the spec's message for every rule broken", () => {
    const fetchMock = mockFetch();
    renderApp('/app-login?register=true');

    fill('Full name', 'M');
    fill('Phone number', '0917');
    fill(/^Email/, 'maria@');
    fill('Password', '123');
    proceed();

    expect(errorOf('Full name')).toBe('Full name is required');
    expect(errorOf('Phone number')).toBe('Phone number is required');
    expect(errorOf(/^Email/)).toBe('Valid email is required');
    expect(errorOf('Password')).toBe('Password must be at least 6 characters');
    expect(document.activeElement).toBe(screen.getByLabelText('Full name'));
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('accepts a registration without an email and leaves it out of the request', async () => {
    const fetchMock = mockFetch(jsonResponse({ success: true, token: 'jwt-reg', user: memberAnswer() }, { status: 201 }));
    renderApp('/app-login?register=true');

    fill('Full name', ' Maria Santos ');
    fill('Phone number', '09171234567');
    fill('Password', 'secret1');
    await acceptPrivacyNotice();
    proceed();

    await waitFor(() => expect(fullPageRedirect).toHaveBeenCalledWith('/loan-app'));
    expect(requestOf(fetchMock)).toMatchObject({
      url: '/api/auth/register',
      body: { fullName: 'Maria Santos', phone: '+639171234567', password: 'secret1', privacyNoticeVersion: 'notice-test-1' },
    });
    expect(localStorage.getItem('token')).toBe('jwt-reg');
    expect(useToasts.getState().toasts[0]).toMatchObject({ title: 'Registration successful', description: 'Your account has been created!' });
  });

  it('shows the privacy notice and registers no one until it is accepted (RA 10173 sec. 12)', async () => {
    const fetchMock = mockFetch();
    renderApp('/app-login?register=true');
    expect((await screen.findByTestId('privacy-notice')).textContent).toContain('What we collect: your name and number.');
    fill('Full name', 'Maria Santos');
    fill('Phone number', '09171234567');
    fill('Password', 'secret1');
    proceed();
    expect((await screen.findByRole('alert')).textContent).toBe('Please read the privacy notice and tick the box to accept it.');
    expect(document.activeElement).toBe(screen.getByRole('checkbox', { name: /I have read the privacy notice/ }));
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('opens the already-registered modal on 409, without a toast', async () => {
    mockFetch(jsonResponse({ message: 'You already have an account, please login', code: 'ALREADY_REGISTERED', alreadyRegistered: true }, { status: 409 }));
    renderApp('/app-login?register=true');
    await fillRegistration();
    proceed();

    const dialog = await screen.findByRole('dialog', { name: 'Account Already Exists' });
    expect(dialog.textContent).toContain('You already have an account, please login');
    // Focus moves in the dialog's effect, which may run a tick after the dialog is in the document.
    await waitFor(() => expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Go to login' })));
    expect(toastTitles()).toEqual([]);
    expect(fullPageRedirect).not.toHaveBeenCalled();
  });

  it('Go to login closes the modal, switches to sign in and resets the form', async () => {
    mockFetch(jsonResponse({ message: 'You already have an account, please login', code: 'ALREADY_REGISTERED' }, { status: 409 }));
    const view = renderApp('/app-login?register=true');
    await fillRegistration();
    proceed();

    fireEvent.click(await screen.findByRole('button', { name: 'Go to login' }));

    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.queryByLabelText('Full name')).toBeNull();
    expect(view.location()).toBe('/app-login');
    expect(screen.getByLabelText('Phone number')).toHaveProperty('value', '');
    expect(screen.getByLabelText('Password')).toHaveProperty('value', '');
  });

  it('Cancel closes the modal and keeps the registration as typed', async () => {
    mockFetch(jsonResponse({ message: 'You already have an account, please login', code: 'ALREADY_REGISTERED' }, { status: 409 }));
    renderApp('/app-login?register=true');
    await fillRegistration();
    proceed();

    fireEvent.click(await screen.findByRole('button', { name: 'Cancel' }));

    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByLabelText('Full name')).toHaveProperty('value', 'Maria Santos');
  });

  it('opens the modal for any 409, whatever its message', async () => {
    mockFetch(jsonResponse({ message: 'Conflict', code: 'ALREADY_REGISTERED' }, { status: 409 }));
    renderApp('/app-login?register=true');
    await fillRegistration();
    proceed();

    expect(await screen.findByRole('dialog', { name: 'Account Already Exists' })).toBeTruthy();
    expect(toastTitles()).toEqual([]);
  });

  it("opens the modal for a message saying 'already have an account' whatever the status", async () => {
    mockFetch(jsonResponse({ message: 'You already have an account, please login' }, { status: 400 }));
    renderApp('/app-login?register=true');
    await fillRegistration();
    proceed();

    expect(await screen.findByRole('dialog', { name: 'Account Already Exists' })).toBeTruthy();
  });

  it("shows the server's field messages beside the fields, and the failure as a toast", async () => {
    mockFetch(jsonResponse({ message: 'Please check the highlighted fields', code: 'VALIDATION_FAILED', details: { fields: { email: 'Valid email is required' } } }, { status: 400 }));
    renderApp('/app-login?register=true');
    await fillRegistration();
    proceed();

    await waitFor(() => expect(errorOf(/^Email/)).toBe('Valid email is required'));
    expect(useToasts.getState().toasts[0]).toMatchObject({
      title: 'Registration failed',
      description: 'Please check the highlighted fields',
      variant: 'destructive',
    });
  });
});
