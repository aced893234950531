import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectPageErrors, horizontalOverflow, launchChromium, phoneContext, screenshot } from './support/browser.js';
import { verifiedBorrower, type ApiBorrower } from './support/borrowers.js';
import { eventually, storedToken } from './support/helpers.js';
import { startSystem, type RunningSystem } from './support/system.js';

/**
 * Issue 14 items 9 and 10 in the browser at 360 × 740 on the started system: forgot password from
 * the sign-in page with the code the server texted, change password, and sign out everywhere.
 */
describe('a borrower securing their account at 360 × 740', () => {
  let system: RunningSystem;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let pageErrors: string[];
  let borrower: ApiBorrower;
  let password = 'Sampaguita#2026';
  const localPhone = () => `0${borrower.phone.slice(3)}`;

  beforeAll(async () => {
    system = await startSystem();
    browser = await launchChromium();
    context = await phoneContext(browser, system.baseUrl);
    page = await context.newPage();
    pageErrors = collectPageErrors(page);
    borrower = await verifiedBorrower(system, 'Andres Bonifacio');
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await system?.stop();
  });

  const dialog = (name: string) => page.getByRole('dialog', { name });

  async function signIn() {
    await page.goto('/app-login');
    await page.getByLabel('Phone number').fill(localPhone());
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Proceed' }).click();
    await page.waitForURL('**/loan-app');
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
  }

  it('sets a new password from "Forgot password?" with the code texted to the phone, and signs in with it', async () => {
    await page.goto('/app-login');
    await page.getByRole('button', { name: 'Forgot password?' }).click();
    const forgot = dialog('Forgot password');
    await forgot.getByLabel('Phone number').fill(localPhone());
    await forgot.getByRole('button', { name: 'Text me a code' }).click();
    await forgot.getByLabel('Code').waitFor();
    expect(await horizontalOverflow(page)).toBe(0);
    await screenshot(page, 'security-01-forgot-password', 'screen');
    // The development outbox stands in for the phone (read with the borrower's API session).
    const code = await eventually('the reset code', async () => {
      const outbox = await system.request('GET', '/api/dev/outbox', { token: borrower.token });
      const text = (outbox.body as { body: string }[]).find((entry) => entry.body.includes('password reset code'));
      return text ? /(\d{6})/.exec(text.body)?.[1] : undefined;
    });
    await forgot.getByLabel('Code').fill(code);
    password = 'Mangga#Hinog2027';
    await forgot.getByLabel('New password').fill(password);
    await forgot.getByRole('button', { name: 'Set new password' }).click();
    await forgot.waitFor({ state: 'detached' });
    await signIn();
  });

  it('changes the password from the profile and stays signed in', async () => {
    await page.goto('/profile');
    await page.getByRole('heading', { level: 1, name: 'Profile' }).waitFor();
    await page.locator('.status-badge', { hasText: 'Phone confirmed' }).waitFor();
    await page.getByRole('button', { name: 'Change password' }).click();
    const change = dialog('Change password');
    await change.getByLabel('Current password').fill('not-my-password');
    await change.getByLabel('New password').fill('Kalamansi#2027');
    await change.getByRole('button', { name: 'Change password' }).click();
    await change.getByText('Your current password is not right').waitFor();
    await screenshot(page, 'security-02-change-password', 'screen');
    await change.getByLabel('Current password').fill(password);
    await change.getByRole('button', { name: 'Change password' }).click();
    await change.waitFor({ state: 'detached' });
    password = 'Kalamansi#2027';
    // The page goes on with the new token, through the revocation of every older one.
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Profile' }).waitFor();
    const token = await storedToken(page);
    expect((await system.request('GET', '/api/user/profile', { token: token! })).status).toBe(200);
    expect((await system.request('GET', '/api/user/profile', { token: borrower.token })).status).toBe(401);
  });

  it('signs out everywhere: this browser and every other session', async () => {
    const other = await system.request('POST', '/api/auth/login', { body: { phone: borrower.phone, password } });
    expect(other.status).toBe(200);
    await page.getByRole('button', { name: 'Sign out everywhere' }).click();
    await dialog('Sign out everywhere?').getByRole('button', { name: 'Sign out everywhere' }).click();
    await page.locator('.toast[data-state="open"]', { hasText: 'Signed out everywhere' }).waitFor();
    await screenshot(page, 'security-03-signed-out-everywhere', 'screen');
    expect(await storedToken(page)).toBeNull();
    expect((await system.request('GET', '/api/user/profile', { token: other.body.token })).status).toBe(401);
    expect(pageErrors).toEqual([]);
  });
});
