import { PRIVACY_NOTICE_VERSION } from '@honeylend/contracts';
import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from './support/axe.js';
import { approvedBorrower, verifiedBorrower, type ApiBorrower } from './support/borrowers.js';
import { launchChromium, phoneContext } from './support/browser.js';
import { desktopContext } from './support/desktop.js';
import { uniquePhone } from './support/helpers.js';
import { startSystem, type RunningSystem } from './support/system.js';

/**
 * Issue 20: axe-core (WCAG 2.1 A/AA and best practices) finds no serious or critical violation on
 * any borrower page, with each of its dialogs open, nor on any console or auditor page. Each state
 * is checked softly, so one run lists every violation.
 */
describe('accessibility of every page and dialog (issue 20)', () => {
  let system: RunningSystem;
  let browser: Browser;
  let context: BrowserContext | undefined;
  let approved: ApiBorrower & { loanId: string };

  beforeAll(async () => {
    system = await startSystem();
    browser = await launchChromium();
    approved = await approvedBorrower(system);
  });

  afterAll(async () => {
    await context?.close().catch(() => undefined);
    await browser?.close();
    await system?.stop();
  });

  /** A fresh context for one test; `token` signs it in. */
  async function open(kind: 'phone' | 'desktop', token?: string): Promise<Page> {
    await context?.close().catch(() => undefined);
    context = kind === 'phone' ? await phoneContext(browser, system.baseUrl) : await desktopContext(browser, system.baseUrl, { token });
    if (kind === 'phone' && token) await context.addInitScript(`window.localStorage.setItem('token', ${JSON.stringify(token)})`);
    return context.newPage();
  }

  async function check(page: Page, state: string): Promise<void> {
    // Transitions (dialogs sliding in, menu highlights, toasts) end before axe reads colours.
    await page.waitForTimeout(700);
    expect.soft(await seriousViolations(page), state).toEqual([]);
  }

  const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name }).waitFor();
  const dialog = (page: Page, name: string | RegExp) => page.getByRole('dialog', { name });

  it('the visitor pages: landing, menu, sign-in, register, the already-registered dialog, not found', async () => {
    const page = await open('phone');
    await page.goto('/');
    await heading(page, 'Effortless Borrowing, Smooth as Honey!');
    await check(page, 'landing');
    await page.getByRole('button', { name: 'Open menu' }).click();
    await dialog(page, 'Menu').waitFor();
    await check(page, 'landing with the menu open');

    await page.goto('/app-login');
    await heading(page, 'Welcome back');
    await check(page, 'sign-in');
    await page.getByRole('button', { name: 'Proceed' }).click();
    await check(page, 'sign-in with its field messages');

    await page.goto('/app-login?register=true');
    await page.getByLabel('Full name').waitFor();
    await page.getByTestId('privacy-notice').waitFor();
    await check(page, 'register');
    await page.getByLabel('Full name').fill('Juan Dela Cruz');
    await page.getByLabel('Phone number').fill(approved.phone.replace(/^\+63/, '0'));
    await page.getByLabel('Password', { exact: true }).fill('Sampaguita#2026');
    await page.getByRole('checkbox', { name: /I have read the privacy notice/ }).check();
    await page.getByRole('button', { name: 'Proceed' }).click();
    await dialog(page, /already/i).waitFor();
    await check(page, 'register with the already-registered dialog');

    await page.goto('/no-such-page');
    await heading(page, 'Page not found');
    await check(page, 'not found');
  });

  it('a new borrower: the dashboard, the verification-required dialog, profile and the personal information dialog', async () => {
    const registered = await system.request('POST', '/api/auth/register', { body: { phone: uniquePhone(), password: 'Sampaguita#2026', fullName: 'Andres Bonifacio', privacyNoticeVersion: PRIVACY_NOTICE_VERSION } });
    expect(registered.status).toBe(201);
    const page = await open('phone', registered.body.token);
    await page.goto('/loan-app');
    await heading(page, 'Dashboard');
    await check(page, 'dashboard (new borrower)');
    await page.getByRole('button', { name: 'Quick loan' }).click();
    await page.getByRole('button', { name: 'Verify now' }).waitFor();
    await check(page, 'dashboard with the verification-required dialog');

    await page.goto('/profile');
    await heading(page, 'Profile');
    await check(page, 'profile (new borrower)');
    await page.getByRole('button', { name: 'Complete personal information' }).click();
    await dialog(page, 'Personal Information').getByLabel('Full name').waitFor();
    await check(page, 'profile with the personal information dialog');
  });

  it('a verified borrower: the apply-for-a-loan dialog', async () => {
    const verified = await verifiedBorrower(system, 'Melchora Aquino');
    const page = await open('phone', verified.token);
    await page.goto('/loan-app');
    await heading(page, 'Dashboard');
    await page.getByRole('button', { name: 'Quick loan' }).click();
    await dialog(page, 'Apply for a Loan').getByLabel('Amount (₱)').waitFor();
    await check(page, 'dashboard with the apply dialog');
  });

  it('a borrower with a loan: dashboard, wallet and its dialogs, profile and its dialogs, the loan page and the pay dialog', async () => {
    const page = await open('phone', approved.token);
    await page.goto('/loan-app');
    await heading(page, 'Dashboard');
    await page.getByRole('link', { name: 'View loan status' }).waitFor();
    await check(page, 'dashboard (approved loan)');

    await page.goto('/wallet');
    await heading(page, 'Wallet');
    await page.getByRole('button', { name: 'Show balance' }).click();
    await check(page, 'wallet');
    await page.getByRole('button', { name: 'Withdraw money' }).click();
    const funds = dialog(page, 'Withdraw Funds');
    await funds.getByLabel('Amount (₱)').fill('1000');
    await check(page, 'wallet with the withdraw dialog');
    await funds.getByRole('button', { name: 'Request withdrawal' }).click();
    await page.getByLabel('OTP code', { exact: true }).waitFor();
    await check(page, 'wallet with the OTP dialog');

    await page.goto('/profile');
    await heading(page, 'Profile');
    await check(page, 'profile (verified)');
    await page.getByRole('button', { name: 'Loan contract' }).click();
    await page.getByRole('dialog').first().waitFor();
    await check(page, 'profile with the loan contract');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Payment Schedule' }).click();
    await page.getByRole('dialog').first().waitFor();
    await check(page, 'profile with the payment schedule');
    await page.keyboard.press('Escape');
    // A dialog closed goes back in the history (issue 22: Back closes a dialog); a page.goto racing
    // that step is aborted, so the wallet is reached as a borrower does, from the tab bar.
    await page.getByRole('dialog').first().waitFor({ state: 'detached' });
    await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'WALLET' }).click();
    await heading(page, 'Wallet');
    await page.getByRole('link', { name: 'View loan and pay' }).click();
    await heading(page, /^Loan LN-/);
    await check(page, 'loan page with its schedule');
    await page.getByRole('button', { name: 'Pay', exact: true }).click();
    const pay = dialog(page, 'Pay from wallet');
    await pay.getByRole('radio', { name: /Next instalment/ }).check();
    await check(page, 'loan page with the pay dialog');
    await pay.getByRole('button', { name: 'Review payment' }).click();
    await dialog(page, 'Confirm payment').waitFor();
    await check(page, 'loan page with the payment confirmation');
  });

  it('the admin console: login (with its level-one heading), every page, a member dialog and the loan servicing drawer', async () => {
    let page = await open('desktop');
    await page.goto('/admin-login');
    await page.getByRole('heading', { level: 1 }).waitFor();
    await check(page, 'admin login');

    page = await open('desktop', await system.adminToken());
    for (const [path, name] of [
      ['/management', 'Members'],
      ['/management/members', 'Members'],
      ['/management/borrowing', 'Borrowing List'],
      ['/management/withdrawal', 'Withdrawal List'],
      ['/management/approvals', 'Approvals'],
      ['/management/collections', 'Collections'],
      ['/management/settings', 'Settings'],
    ] as const) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1, name }).waitFor();
      await page
        .locator('.ant-spin-spinning')
        .first()
        .waitFor({ state: 'detached' })
        .catch(() => undefined);
      await check(page, `console ${path}`);
    }
    await page.goto('/management/members');
    // The keyboard's first stop is the skip link, which takes focus past the menu to the page.
    await page.getByRole('heading', { level: 1, name: 'Members' }).waitFor();
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement?.textContent')).toBe('Skip to content');
    await page.keyboard.press('Enter');
    expect(await page.evaluate('document.activeElement?.id')).toBe('staff-content');
    await page.getByRole('button', { name: 'Add member' }).click();
    await page.getByRole('dialog').first().waitFor();
    await check(page, 'console members with the add member dialog');
    await page.keyboard.press('Escape');
    await page
      .getByRole('row', { name: /Gabriela Silang/ })
      .first()
      .getByRole('button', { name: 'History' })
      .click();
    await page
      .getByRole('dialog', { name: /^Audit trail/ })
      .locator('.admin-audit-event')
      .first()
      .waitFor();
    await check(page, 'console members with the history drawer');

    await page.goto('/management/borrowing');
    await page.getByRole('row', { name: /LN-/ }).first().getByRole('button', { name: 'Repayments' }).click();
    await page.getByRole('dialog', { name: /^Loan LN-/ }).waitFor();
    await check(page, 'console borrowing with the loan servicing drawer');
  });

  it('the auditor workspace: event log, a stream, the book and checkpoints', async () => {
    const auditor = { email: `auditor-${randomUUID().slice(0, 8)}@honeylend.test`, password: 'Ledger-Check#2026' };
    const created = await system.request('POST', '/api/admin/create-admin', { token: await system.adminToken(), body: { ...auditor, fullName: 'Ana Auditor', role: 'auditor' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const login = await system.request('POST', '/api/auth/admin-login', { body: { username: auditor.email, password: auditor.password } });
    expect(login.status).toBe(200);
    const page = await open('desktop', login.body.token);
    for (const [path, name] of [
      ['/audit', 'Event log'],
      [`/audit/streams/${encodeURIComponent(`member-${approved.id}`)}`, null],
      ['/audit/book', null],
      ['/audit/checkpoints', null],
    ] as const) {
      await page.goto(path);
      if (name) await page.getByRole('heading', { name }).waitFor();
      else await page.getByRole('heading').first().waitFor();
      await page
        .locator('.ant-spin-spinning')
        .first()
        .waitFor({ state: 'detached' })
        .catch(() => undefined);
      await page.waitForLoadState('networkidle').catch(() => undefined);
      await check(page, `auditor ${path}`);
    }
  });
});
