import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { BANNER_INTERVAL_MS } from './borrower/landing/BannerCarousel';
import { useSession } from './borrower/stores/session';
import { useToasts } from './shared/toast/toastStore';
import { jsonResponse, memberAnswer, mockFetch } from './testing/http';
import { renderApp } from './testing/renderApp';

function signedOut() {
  useSession.setState({ user: null, loading: false });
}

function signedIn(overrides: Parameters<typeof memberAnswer>[0] = {}) {
  localStorage.setItem('token', 'jwt-abc');
  useSession.setState({ user: memberAnswer({ phone: '+639171234567', ...overrides }), loading: false });
}

describe('routes (spec §2)', () => {
  it('shows the 404 page with a link home for an unknown address', () => {
    signedOut();
    renderApp('/no-such-page');

    expect(screen.getByRole('heading', { level: 1, name: 'Page not found' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to home' }).getAttribute('href')).toBe('/');
  });

  it('goes home from the 404 page', () => {
    signedOut();
    const view = renderApp('/no-such-page/unknown');

    fireEvent.click(screen.getByRole('link', { name: 'Go to home' }));

    expect(view.location()).toBe('/');
    expect(screen.getByRole('heading', { level: 1, name: 'Effortless Borrowing, Smooth as Honey!' })).toBeTruthy();
  });

  it("shows 'Loading...' while the session check runs", () => {
    useSession.setState({ user: null, loading: true });
    renderApp('/loan-app');

    expect(screen.getByRole('status').textContent).toBe('Loading...');
    expect(screen.queryByRole('banner')).toBeNull();
  });

  it.each(['/loan-app', '/wallet', '/profile'])('draws the sign-in page at %s for a visitor', (path) => {
    signedOut();
    const view = renderApp(path);

    expect(screen.getByRole('button', { name: 'Proceed' })).toBeTruthy();
    expect(view.location()).toBe(path);
    expect(screen.queryByRole('navigation', { name: 'Account' })).toBeNull();
  });

  it.each([
    ['/loan-app', 'Dashboard'],
    ['/wallet', 'Wallet'],
    ['/profile', 'Profile'],
  ])('greets the signed-in member by first name at %s, by phone while they have given no name', (path, heading) => {
    signedIn();
    const named = renderApp(path);

    expect(screen.getByRole('heading', { level: 1, name: heading })).toBeTruthy();
    expect(screen.getByText('Hello, Maria')).toBeTruthy();
    named.unmount();
    signedIn({ fullName: '' });
    renderApp(path);
    expect(screen.getByText('Hello, +639171234567')).toBeTruthy();
  });

  it('sends /dashboard to /loan-app', () => {
    signedIn();
    const view = renderApp('/dashboard');

    expect(view.location()).toBe('/loan-app');
    expect(screen.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeTruthy();
  });

  it('sends a member who is already signed in from the sign-in page to /loan-app', () => {
    signedIn();
    const view = renderApp('/app-login');
    expect(view.location()).toBe('/loan-app');
  });
});

describe('shell', () => {
  it('shows the tab bar only to a signed-in member, HOME leading to /loan-app', () => {
    signedIn();
    const view = renderApp('/wallet');
    const tabs = screen.getByRole('navigation', { name: 'Account' });

    expect(
      within(tabs)
        .getAllByRole('link')
        .map((link) => [link.textContent, link.getAttribute('href')]),
    ).toEqual([
      ['HOME', '/loan-app'],
      ['WALLET', '/wallet'],
      ['PROFILE', '/profile'],
    ]);
    fireEvent.click(within(tabs).getByRole('link', { name: 'HOME' }));
    expect(view.location()).toBe('/loan-app');
  });

  it('hides the tab bar from a visitor', () => {
    signedOut();
    renderApp('/');
    expect(screen.queryByRole('navigation', { name: 'Account' })).toBeNull();
  });

  it('offers Home and Login in the menu to a visitor', () => {
    signedOut();
    renderApp('/');

    fireEvent.click(screen.getByRole('button', { name: 'Open menu' }));
    const menu = screen.getByRole('dialog', { name: 'Menu' });

    expect(
      within(menu)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Home', 'Login']);
    expect(within(menu).queryByRole('button', { name: 'Logout' })).toBeNull();
  });

  it('offers Home (the dashboard), Wallet, Profile and Logout to a member, and closes on Escape', () => {
    signedIn();
    renderApp('/profile');
    const opener = screen.getByRole('button', { name: 'Open menu' });

    opener.focus();
    fireEvent.click(opener);
    const menu = screen.getByRole('dialog', { name: 'Menu' });
    expect(
      within(menu)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Home', 'Wallet', 'Profile']);
    // Issue 22 item 8: signed in, Home is the dashboard, not the marketing page.
    expect(within(menu).getByRole('link', { name: 'Home' }).getAttribute('href')).toBe('/loan-app');
    expect(within(menu).getByRole('button', { name: 'Logout' })).toBeTruthy();
    expect(menu.contains(document.activeElement)).toBe(true);

    fireEvent.keyDown(menu, { key: 'Escape' });
    expect(screen.queryByRole('dialog', { name: 'Menu' })).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it('logs out from the menu: token gone, member cleared, notice shown, landing page drawn', () => {
    signedIn();
    const view = renderApp('/wallet');

    fireEvent.click(screen.getByRole('button', { name: 'Open menu' }));
    fireEvent.click(screen.getByRole('button', { name: 'Logout' }));

    expect(localStorage.getItem('token')).toBeNull();
    expect(useSession.getState().user).toBeNull();
    expect(view.location()).toBe('/');
    expect(screen.getByRole('status').textContent).toContain('You have been logged out successfully');
  });

  it('takes a member found suspended to /app-login with the destructive notice', async () => {
    signedIn();
    mockFetch(jsonResponse({ message: 'Your account has been suspended. Please contact support.', accountStatus: 'suspended' }, { status: 403 }));
    const view = renderApp('/wallet');

    await act(() => useSession.getState().refreshUser());

    await waitFor(() => expect(view.location()).toBe('/app-login'));
    expect(localStorage.getItem('token')).toBeNull();
    expect(screen.getByRole('alert').textContent).toContain('Your account has been suspended. Please contact support.');
    expect(useToasts.getState().toasts[0]?.variant).toBe('destructive');
  });
});

describe('landing page (spec §2)', () => {
  it('pitches the loan and links to registration and sign-in', () => {
    signedOut();
    renderApp('/');

    expect(screen.getByText('Access up to 4,000,000 PHP now!')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Register (new client)' }).getAttribute('href')).toBe('/app-login?register=true');
    expect(screen.getByRole('link', { name: 'Login' }).getAttribute('href')).toBe('/app-login');
    expect(screen.getByRole('link', { name: 'Request now' }).getAttribute('href')).toBe('/app-login?register=true');
    expect(screen.getByRole('region', { name: 'Loan amount' }).textContent).toContain('80,000 PHP');
    expect(screen.getByRole('region', { name: 'Loan amount' }).textContent).toContain('4,000,000 PHP');
    for (const method of ['GCash', 'Maya', 'Bank transfer']) expect(screen.getByText(method)).toBeTruthy();
  });

  it('loops through its three banners', () => {
    signedOut();
    renderApp('/');
    const current = () => screen.getAllByRole('button', { name: /^Show banner/ }).findIndex((dot) => dot.getAttribute('aria-current') === 'true');

    expect(screen.getAllByRole('group', { hidden: true }).map((slide) => slide.querySelector('h2')?.textContent)).toEqual(['Fast cash loans', 'Digital lending', 'Flexible terms']);
    fireEvent.click(screen.getByRole('button', { name: 'Previous banner' }));
    expect(current()).toBe(2);
    fireEvent.click(screen.getByRole('button', { name: 'Next banner' }));
    expect(current()).toBe(0);
  });

  it('stops the banners on the pause button and starts them again (issue 22, item 19)', () => {
    vi.useFakeTimers();
    try {
      signedOut();
      renderApp('/');
      const current = () => screen.getAllByRole('button', { name: /^Show banner/ }).findIndex((dot) => dot.getAttribute('aria-current') === 'true');
      fireEvent.click(screen.getByRole('button', { name: 'Pause banners' }));
      act(() => {
        vi.advanceTimersByTime(BANNER_INTERVAL_MS * 3);
      });
      expect(current()).toBe(0);
      fireEvent.click(screen.getByRole('button', { name: 'Play banners' }));
      act(() => {
        vi.advanceTimersByTime(BANNER_INTERVAL_MS);
      });
      expect(current()).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('opens registration from Register', () => {
    signedOut();
    const view = renderApp('/');

    fireEvent.click(screen.getByRole('link', { name: 'Register (new client)' }));

    expect(view.location()).toBe('/app-login?register=true');
    expect(screen.getByLabelText('Full name')).toBeTruthy();
  });
});
