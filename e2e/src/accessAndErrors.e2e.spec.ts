import { PRIVACY_NOTICE_VERSION } from '@honeylend/contracts';
import { describe, expect, it } from 'vitest';
import { horizontalOverflow, screenshot } from './support/browser.js';
import { storedToken, textOf, uniquePhone } from './support/helpers.js';
import { phonePageEachTest, systemAndBrowser } from './support/suite.js';

const SUSPENDED_MESSAGE = 'Your account has been suspended. Please contact support.';

describe('access at 360 × 740: suspension, signed-out visits and the 404 page', () => {
  const suite = systemAndBrowser();
  const tab = phonePageEachTest(suite);

  /** Registers through the API and opens the dashboard signed in with that token. */
  async function signedInBorrower() {
    const phone = uniquePhone();
    const registered = await suite.system.request('POST', '/api/auth/register', { body: { phone, password: 'Sampaguita#2026', fullName: 'Andres Bonifacio', privacyNoticeVersion: PRIVACY_NOTICE_VERSION } });
    expect(registered.status, JSON.stringify(registered.body)).toBe(201);
    await tab.page.goto('/');
    await tab.page.evaluate(`window.localStorage.setItem('token', ${JSON.stringify(registered.body.token)})`);
    await tab.page.goto('/loan-app');
    await tab.page.getByText('Hello, Andres').waitFor();
    return { id: registered.body.user.id as string, phone };
  }

  it("forces a member an admin suspends out to /app-login with the spec's message, without any action of theirs", async () => {
    const member = await signedInBorrower();
    await tab.page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'WALLET' }).click();
    await tab.page.getByRole('heading', { level: 1, name: 'Wallet' }).waitFor();

    const suspension = await suite.system.request('PUT', `/api/admin/users/${member.id}`, { token: await suite.system.adminToken(), body: { status: 'suspended' } });
    expect(suspension.status, JSON.stringify(suspension.body)).toBe(200);

    await tab.page.waitForURL('**/app-login', { timeout: 5_000 });
    const notice = tab.page.getByRole('alert');
    await textOf(notice, 'Account Suspended');
    await textOf(notice, SUSPENDED_MESSAGE);
    expect(await storedToken(tab.page)).toBeNull();
    expect(await tab.page.getByRole('navigation', { name: 'Account' }).count()).toBe(0);
    await tab.page.getByRole('button', { name: 'Proceed' }).waitFor();
    await screenshot(tab.page, 'access-01-suspended', 'screen');

    // Signing in again is refused with the same message.
    await tab.page.getByLabel('Phone number').fill(member.phone);
    await tab.page.getByLabel('Password', { exact: true }).fill('Sampaguita#2026');
    await tab.page.getByRole('button', { name: 'Proceed' }).click();
    await textOf(tab.page.getByRole('alert'), SUSPENDED_MESSAGE);
    expect(await storedToken(tab.page)).toBeNull();
  });

  it('shows the sign-in page in place of a member screen to a visitor', async () => {
    await tab.page.goto('/wallet');
    await tab.page.getByRole('button', { name: 'Proceed' }).waitFor();
    expect(new URL(tab.page.url()).pathname).toBe('/wallet');
    expect(await tab.page.getByRole('navigation', { name: 'Account' }).count()).toBe(0);
  });

  it('sends /dashboard to /loan-app', async () => {
    await signedInBorrower();
    await tab.page.goto('/dashboard');
    await tab.page.waitForURL('**/loan-app');
    await tab.page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
  });

  it('shows the 404 page for an unknown address, with a way home', async () => {
    await tab.page.goto('/no/such/page');
    await tab.page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
    expect(await tab.page.title()).toBe('Page not found · Honeylend');
    expect(await horizontalOverflow(tab.page)).toBe(0);
    await screenshot(tab.page, 'access-02-not-found');
    await tab.page.getByRole('link', { name: 'Go to home' }).click();
    await tab.page.getByRole('heading', { level: 1, name: 'Effortless Borrowing, Smooth as Honey!' }).waitFor();
  });

  it('is usable from the keyboard: skip link, menu and its links', async () => {
    await tab.page.goto('/');
    // The first Tab only means something once React has rendered the page (a loaded machine may lag).
    await tab.page.getByRole('heading', { level: 1, name: 'Effortless Borrowing, Smooth as Honey!' }).waitFor();
    await tab.page.getByRole('link', { name: 'Skip to content' }).waitFor({ state: 'attached' });
    await tab.page.keyboard.press('Tab');
    expect(await tab.page.evaluate('document.activeElement && document.activeElement.textContent')).toBe('Skip to content');
    await tab.page.keyboard.press('Tab');
    await tab.page.keyboard.press('Tab');
    expect(await tab.page.evaluate("document.activeElement && document.activeElement.getAttribute('aria-label')")).toBe('Open menu');
    await tab.page.keyboard.press('Enter');
    const menu = tab.page.getByRole('dialog', { name: 'Menu' });
    await menu.waitFor();
    await tab.page.keyboard.press('Tab');
    expect(await tab.page.evaluate('document.activeElement && document.activeElement.textContent')).toBe('Home');
    await tab.page.keyboard.press('Tab');
    expect(await tab.page.evaluate('document.activeElement && document.activeElement.textContent')).toBe('Login');
    await tab.page.keyboard.press('Enter');
    await tab.page.waitForURL('**/app-login');
    await tab.page.getByRole('button', { name: 'Proceed' }).waitFor();
  });
});
