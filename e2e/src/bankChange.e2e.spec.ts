import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectPageErrors, horizontalOverflow, launchChromium, phoneContext, screenshot } from './support/browser.js';
import { latestOtp, maskedPhone, e164 } from './support/helpers.js';
import { approvedBorrower, type ApiBorrower } from './support/borrowers.js';
import { startSystem, type RunningSystem } from './support/system.js';

/**
 * Issue 14 items 3 and 11 at 360 × 740: a borrower with money in the wallet replaces the bank
 * account on their profile with the code texted to them, and the wallet then says withdrawals are
 * paused, until when and why.
 */
describe('a borrower changing their bank account at 360 × 740', () => {
  let system: RunningSystem;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let pageErrors: string[];
  let borrower: ApiBorrower;

  beforeAll(async () => {
    system = await startSystem();
    borrower = await approvedBorrower(system);
    browser = await launchChromium();
    context = await phoneContext(browser, system.baseUrl);
    page = await context.newPage();
    pageErrors = collectPageErrors(page);
    await page.goto('/app-login');
    await page.getByLabel('Phone number').fill(borrower.phone);
    await page.getByLabel('Password', { exact: true }).fill('Sampaguita#2026');
    await page.getByRole('button', { name: 'Proceed' }).click();
    await page.waitForURL('**/loan-app');
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await system?.stop();
  });

  const dialog = (name: string) => page.getByRole('dialog', { name });

  it('asks for the code texted to the phone, naming the new account, and saves the account with it', async () => {
    await page.goto('/profile');
    await page.getByRole('button', { name: 'View more' }).click();
    await dialog('Personal Information').getByRole('button', { name: 'Edit' }).click();
    const form = dialog('Personal Information');
    await form.getByLabel('Account number').fill('109876545555');
    const askedAt = new Date().toISOString();
    await form.getByRole('button', { name: 'Save' }).click();

    const step = dialog('Confirm your new bank account');
    await step.waitFor();
    expect(await step.textContent()).toContain(maskedPhone(e164(borrower.phone)));
    expect(await step.textContent()).toContain('UnionBank ••••5555');
    expect(await step.textContent()).toContain('withdrawals are paused for 24 hours');
    expect(await horizontalOverflow(page)).toBe(0);
    await screenshot(page, 'bank-change-code', 'screen');

    await step.getByLabel('Code from the SMS').fill('000000');
    await step.getByRole('button', { name: 'Confirm change' }).click();
    await step.getByText('Invalid OTP code').waitFor();

    const code = await latestOtp(system, borrower.token, askedAt, 'bank change');
    await step.getByLabel('Code from the SMS').fill(code);
    await step.getByRole('button', { name: 'Confirm change' }).click();
    await step.waitFor({ state: 'detached' });
    const profile = await system.request('GET', '/api/user/profile', { token: borrower.token });
    expect(profile.body).toMatchObject({ bankName: 'UnionBank', bankAccountNumber: '109876545555', withdrawalHold: { reason: 'bank-account-changed' } });
  });

  it('shows on the wallet that withdrawals are paused, until when and why, with Withdraw money disabled', async () => {
    await page.goto('/wallet');
    const notice = page.getByTestId('withdrawal-hold');
    await notice.waitFor();
    expect(await notice.textContent()).toMatch(/Withdrawals paused until .+Your bank account was changed\./);
    expect(await page.getByRole('button', { name: 'Withdraw money' }).isDisabled()).toBe(true);
    expect(await horizontalOverflow(page)).toBe(0);
    await screenshot(page, 'wallet-withdrawal-hold');
    // The wrong code's 400 is logged by the browser as a failed resource; nothing else may be.
    expect(pageErrors.filter((error) => !error.includes('Failed to load resource'))).toEqual([]);
  });
});
