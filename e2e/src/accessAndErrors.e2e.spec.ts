import { PRIVACY_NOTICE_VERSION } from '@honeylend/contracts';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, afterEach, describe, expect, it } from 'vitest';
import { horizontalOverflow, launchChromium, phoneContext, screenshot } from './support/browser.js';
import { e164, storedToken, textOf, uniquePhone } from './support/helpers.js';
import { startSystem, type RunningSystem } from './support/system.js';

const SUSPENDED_MESSAGE = 'Your account has been suspended. Please contact support.';

describe('access at 360 × 740: suspension, signed-out visits and the 404 page', () => {
  let system: RunningSystem;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    system = await startSystem();
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await system?.stop();
  });

  beforeEach(async () => {
    context = await phoneContext(browser, system.baseUrl);
    page = await context.newPage();
  });

  afterEach(async () => {
    await context?.close();
  });

  /** Registers through the API and opens the dashboard signed in with that token. */
  async function signedInBorrower() {
    const phone = uniquePhone();
    const registered = await system.request('POST', '/api/auth/register', { body: { phone, password: 'Sampaguita#2026', fullName: 'Andres Bonifacio', privacyNoticeVersion: PRIVACY_NOTICE_VERSION } });
    expect(registered.status, JSON.stringify(registered.body)).toBe(201);
    await page.goto('/');
    await page.evaluate(`window.localStorage.setItem('token', ${JSON.stringify(registered.body.token)})`);
    await page.goto('/loan-app');
    await page.getByText(`Hello, ${e164(phone)}`).waitFor();
    return { id: registered.body.user.id as string, phone };
  }

  it("forces a member an admin suspends out to /app-login with the spec's message, without any action of theirs", async () => {
    const member = await signedInBorrower();
    await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'WALLET' }).click();
    await page.getByRole('heading', { level: 1, name: 'Wallet' }).waitFor();

    const suspension = await system.request('PUT', `/api/admin/users/${member.id}`, { token: await system.adminToken(), body: { status: 'suspended' } });
    expect(suspension.status, JSON.stringify(suspension.body)).toBe(200);

    await page.waitForURL('**/app-login', { timeout: 5_000 });
    const notice = page.getByRole('alert');
    await textOf(notice, 'Account Suspended');
    await textOf(notice, SUSPENDED_MESSAGE);
    expect(await storedToken(page)).toBeNull();
    expect(await page.getByRole('navigation', { name: 'Account' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Proceed' }).waitFor();
    await screenshot(page, 'access-01-suspended', 'screen');

    // Signing in again is refused with the same message.
    await page.getByLabel('Phone number').fill(member.phone);
    await page.getByLabel('Password', { exact: true }).fill('Sampaguita#2026');
    await page.getByRole('button', { name: 'Proceed' }).click();
    await textOf(page.getByRole('alert'), SUSPENDED_MESSAGE);
    expect(await storedToken(page)).toBeNull();
  });

  it('shows the sign-in page in place of a member screen to a visitor', async () => {
    await page.goto('/wallet');
    await page.getByRole('button', { name: 'Proceed' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/wallet');
    expect(await page.getByRole('navigation', { name: 'Account' }).count()).toBe(0);
  });

  it('sends /dashboard to /loan-app', async () => {
    await signedInBorrower();
    await page.goto('/dashboard');
    await page.waitForURL('**/loan-app');
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
  });

  it('shows the 404 page for an unknown address, with a way home', async () => {
    await page.goto('/no/such/page');
    await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
    expect(await page.title()).toBe('Page not found · Honeylend');
    expect(await horizontalOverflow(page)).toBe(0);
    await screenshot(page, 'access-02-not-found');
    await page.getByRole('link', { name: 'Go to home' }).click();
    await page.getByRole('heading', { level: 1, name: 'Effortless Borrowing, Smooth as Honey!' }).waitFor();
  });

  it('is usable from the keyboard: skip link, menu and its links', async () => {
    await page.goto('/');
    // The first Tab only means something once React has rendered the page (a loaded machine may lag).
    await page.getByRole('heading', { level: 1, name: 'Effortless Borrowing, Smooth as Honey!' }).waitFor();
    await page.getByRole('link', { name: 'Skip to content' }).waitFor({ state: 'attached' });
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement && document.activeElement.textContent')).toBe('Skip to content');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await page.evaluate("document.activeElement && document.activeElement.getAttribute('aria-label')")).toBe('Open menu');
    await page.keyboard.press('Enter');
    const menu = page.getByRole('dialog', { name: 'Menu' });
    await menu.waitFor();
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement && document.activeElement.textContent')).toBe('Home');
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement && document.activeElement.textContent')).toBe('Login');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/app-login');
    await page.getByRole('button', { name: 'Proceed' }).waitFor();
  });
});
