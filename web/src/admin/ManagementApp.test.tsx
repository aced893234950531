import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { provideBrowserApisAntdNeeds } from '../testing/antdInJsdom';
import { renderApp } from '../testing/renderApp';

/** A token whose payload names `role` (the console reads the role only to choose what to draw; the API checks the signature). */
function tokenFor(role: string): string {
  const payload = btoa(JSON.stringify({ sub: 'a1', role })).replace(/=+$/, '');
  return `eyJhbGciOiJIUzI1NiJ9.${payload}.signature`;
}

// The console is a lazy chunk: its first import in a test takes a while.
const LOADED = { timeout: 15_000 };

function resizeTo(width: number) {
  Object.defineProperty(window, 'innerWidth', { configurable: true, value: width });
}

describe('/management', () => {
  afterEach(() => resizeTo(1024));

  it('shows Access Denied with a link to admin login to a borrower', async () => {
    resizeTo(1440);
    localStorage.setItem('token', tokenFor('borrower'));
    renderApp('/management/members');
    expect(await screen.findByText("Access Denied - You don't have permission to access the management panel.", {}, LOADED)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to admin login' }).getAttribute('href')).toBe('/admin-login');
  });

  it('shows Access Denied to a visitor without a token', async () => {
    resizeTo(1440);
    renderApp('/management');
    expect(await screen.findByText("Access Denied - You don't have permission to access the management panel.", {}, LOADED)).toBeTruthy();
  });

  it('says the panel is desktop only below 1024 px, even to an admin', async () => {
    provideBrowserApisAntdNeeds();
    resizeTo(900);
    localStorage.setItem('token', tokenFor('superadmin'));
    renderApp('/management/withdrawal');
    expect(await screen.findByText('The management panel is desktop only', {}, LOADED)).toBeTruthy();
    // Hidden, not unmounted: what an admin had open comes back when the window is wide again.
    await waitFor(() => expect(screen.getByTestId('management-console').hidden).toBe(true));
    expect(document.body.classList.contains('management-narrow')).toBe(true);
  });
});
