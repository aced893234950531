import { readFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { collectPageErrors, horizontalOverflow, phoneContext, screenshot } from './support/browser.js';
import { storedToken, textOf, uniquePhone } from './support/helpers.js';
import { pendingLoan, verifiedBorrower } from './support/borrowers.js';
import { systemAndBrowser } from './support/suite.js';

/*
 * Issue 17, item 4 (RA 10173, the Data Privacy Act), on a phone (360 × 740): registration shows the
 * privacy notice and records consent to it; a member who has not consented to the notice in force
 * reads it and accepts it before going on; a borrower downloads everything Honeylend holds about
 * them from the profile (one JSON file, at once); a borrower with nothing owed closes the account.
 */
describe('data privacy on a phone', () => {
  const suite = systemAndBrowser();
  let context: BrowserContext;
  let page: Page;
  let pageErrors: string[];

  async function freshPage(token?: string) {
    await context?.close();
    context = await phoneContext(suite.browser, suite.system.baseUrl);
    page = await context.newPage();
    pageErrors = collectPageErrors(page);
    await page.goto('/');
    if (token) await page.evaluate(`window.localStorage.setItem('token', ${JSON.stringify(token)})`);
  }

  it('shows the privacy notice at registration, and registers only once it is accepted, recording the consent', async () => {
    await freshPage();
    const phone = uniquePhone();
    await page.goto('/app-login?register=true');
    const notice = page.getByTestId('privacy-notice');
    await textOf(notice, 'Republic Act No. 10173');
    await textOf(notice, '5 years');
    await textOf(notice, 'Download my data');
    await page.getByLabel('Full name').fill('Leonor Rivera');
    await page.getByLabel('Phone number').fill(phone);
    await page.getByLabel('Password', { exact: true }).fill('Sampaguita#2026');
    await page.getByRole('button', { name: 'Proceed' }).click();
    await textOf(page.getByRole('alert').filter({ hasText: 'privacy notice' }), 'Please read the privacy notice and tick the box to accept it.');
    expect(await storedToken(page)).toBeNull();
    expect(await horizontalOverflow(page)).toBe(0);
    await screenshot(page, 'privacy-notice-at-registration');

    await page.getByRole('checkbox', { name: /I have read the privacy notice/ }).check();
    await page.getByRole('button', { name: 'Proceed' }).click();
    await page.waitForURL('**/loan-app');
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    const token = (await storedToken(page))!;
    const notice_ = await suite.system.request('GET', '/api/privacy-notice');
    const profile = await suite.system.request('GET', '/api/user/profile', { token });
    expect(profile.body).toMatchObject({ fullName: 'Leonor Rivera', consentRequired: false, privacyNoticeVersion: notice_.body.version });
    expect(pageErrors).toEqual([]);
  });

  it('asks a member who has not consented to the notice in force to read and accept it before going on', async () => {
    const phone = uniquePhone();
    const registered = await suite.system.request('POST', '/api/auth/register', { body: { phone, password: 'Sampaguita#2026', fullName: 'Jose Rizal' } });
    expect(registered.status).toBe(201);
    await freshPage(registered.body.token);
    await page.goto('/loan-app');
    const gate = page.getByRole('region', { name: 'Our privacy notice' });
    await textOf(gate.getByTestId('privacy-notice'), 'Republic Act No. 10173');
    expect(await page.getByRole('heading', { level: 1, name: 'Dashboard' }).count()).toBe(0);
    await screenshot(page, 'privacy-notice-asked-again');
    await gate.getByRole('button', { name: 'I accept the privacy notice' }).click();
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    const profile = await suite.system.request('GET', '/api/user/profile', { token: registered.body.token });
    expect(profile.body.consentRequired).toBe(false);
    expect(pageErrors).toEqual([]);
  });

  it('downloads everything Honeylend holds about the borrower from the profile, as one JSON file', async () => {
    const borrower = await verifiedBorrower(suite.system, 'Clara Tinio');
    const loan = await pendingLoan(suite.system, borrower, 90_000);
    const other = await verifiedBorrower(suite.system, 'Pedro Paterno');
    await freshPage(borrower.token);
    await page.goto('/profile');
    const card = page.getByRole('region', { name: 'Your data and privacy' });
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, 'profile-your-data', 'screen');
    const [download] = await Promise.all([page.waitForEvent('download'), card.getByRole('button', { name: 'Download my data' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^honeylend-my-data-\d{4}-\d{2}-\d{2}\.json$/);
    const file = join(mkdtempSync(join(tmpdir(), 'honeylend-e2e-export-')), 'my-data.json');
    await download.saveAs(file);
    const text = readFileSync(file, 'utf8');
    const data = JSON.parse(text);
    expect(data.profile).toMatchObject({ id: borrower.id, fullName: 'Clara Tinio', consentRequired: false });
    expect(data.loans.map((row: { id: string }) => row.id)).toEqual([loan.id]);
    expect(data.documents).toHaveLength(3);
    const types = data.events.map((event: { type: string }) => event.type);
    for (const type of ['MemberRegistered', 'ConsentGiven', 'LoanApplied']) expect(types).toContain(type);
    for (const trace of [other.id, other.phone, 'Pedro Paterno', '$argon2id$']) expect(text).not.toContain(trace);
    expect(pageErrors).toEqual([]);
  });

  it('closes the account of a borrower with nothing owed: signed out at once, and sign-in refused', async () => {
    const borrower = await verifiedBorrower(suite.system, 'Trinidad Tecson');
    await freshPage(borrower.token);
    await page.goto('/profile');
    await page.getByRole('region', { name: 'Your data and privacy' }).getByRole('button', { name: 'Close my account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Close your account?' });
    await dialog.getByLabel('Why are you leaving?').fill('I no longer need a loan');
    await screenshot(page, 'close-account-dialog', 'screen');
    await dialog.getByRole('button', { name: 'Close my account' }).click();
    await textOf(page.locator('.toast').filter({ hasText: 'Account closed' }), 'The records the law requires stay on our log for 5 years');
    await screenshot(page, 'account-closed', 'screen');
    expect(await storedToken(page)).toBeNull();
    const signIn = await suite.system.request('POST', '/api/auth/login', { body: { phone: borrower.phone, password: 'Sampaguita#2026' } });
    expect(signIn.status).toBe(403);
    expect(signIn.body.code).toBe('ACCOUNT_CLOSED');
    expect(pageErrors).toEqual([]);
  });
});
