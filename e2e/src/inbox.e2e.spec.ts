import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectPageErrors, launchChromium, phoneContext, screenshot } from './support/browser.js';
import { eventually, textOf } from './support/helpers.js';
import { pendingLoan, verifiedBorrower, type ApiBorrower } from './support/borrowers.js';
import { startSystem, type RunningSystem } from './support/system.js';

/*
 * Issue 17, item 5 (honest screens), on a phone (360 × 740): the borrower reads and clears their
 * notifications — the bell's count rises when a notification arrives and falls as they read, live,
 * also on their second device — and cancels their application while it is under review.
 */
describe('the notification inbox and cancelling an application, on a phone', () => {
  let system: RunningSystem;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  let phone: Page;
  let tablet: Page;
  let pageErrors: string[];
  let borrower: ApiBorrower;
  let admin: string;

  const notify = async (title: string, message: string) => {
    const sent = await system.request('POST', '/api/admin/notifications', { token: admin, body: { userId: borrower.id, title, message } });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
  };
  const bell = (page: Page) => page.getByRole('button', { name: /^Notifications,/ });
  const bellSays = (page: Page, label: string) => eventually(`the bell to say "${label}"`, async () => ((await bell(page).getAttribute('aria-label')) === label ? true : undefined), 5_000);

  async function signedInPage(): Promise<Page> {
    const context = await phoneContext(browser, system.baseUrl);
    contexts.push(context);
    const page = await context.newPage();
    await page.goto('/');
    await page.evaluate(`window.localStorage.setItem('token', ${JSON.stringify(borrower.token)})`);
    await page.goto('/loan-app');
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    return page;
  }

  beforeAll(async () => {
    system = await startSystem();
    browser = await launchChromium();
    admin = await system.adminToken();
    borrower = await verifiedBorrower(system, 'Corazon Dimaculangan');
    await notify('Welcome to Honeylend', 'Your account is verified. You may apply for a loan.');
    await notify('Documents received', 'Thank you: your ID and selfie are on file.');
    phone = await signedInPage();
    pageErrors = collectPageErrors(phone);
    tablet = await signedInPage();
  });

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await system?.stop();
  });

  it('raises the unread count when a notification arrives, without a reload, on both devices', async () => {
    await bellSays(phone, 'Notifications, 2 unread');
    await bellSays(tablet, 'Notifications, 2 unread');
    await phone.evaluate('window.__sameDocument = true');
    await notify('Branch hours', 'Our help line is open until 8 PM today.');
    await bellSays(phone, 'Notifications, 3 unread');
    await bellSays(tablet, 'Notifications, 3 unread');
    await textOf(phone.getByTestId('unread-count'), '3');
    expect(await phone.evaluate('window.__sameDocument')).toBe(true);
    await screenshot(phone, 'inbox-01-bell-3-unread', 'screen');
  });

  it('marks one as read: the count falls here and on the other device', async () => {
    await bell(phone).click();
    const inbox: Locator = phone.getByRole('dialog', { name: 'Notifications' });
    await inbox.waitFor();
    expect(await inbox.getByTestId('notification').count()).toBe(3);
    // Newest first.
    await textOf(inbox.getByTestId('notification').first(), 'Branch hours');
    await screenshot(phone, 'inbox-02-list', 'screen');
    await inbox.getByRole('button', { name: 'Mark "Documents received" as read' }).click();
    await bellSays(phone, 'Notifications, 2 unread');
    await bellSays(tablet, 'Notifications, 2 unread');
    expect(await inbox.getByRole('button', { name: 'Mark "Documents received" as read' }).count()).toBe(0);
    expect(await inbox.locator('[data-testid="notification"][data-read="true"]').count()).toBe(1);
  });

  it('clears them all with Mark all as read, and the other device follows', async () => {
    const inbox = phone.getByRole('dialog', { name: 'Notifications' });
    await inbox.getByRole('button', { name: 'Mark all as read' }).click();
    await bellSays(phone, 'Notifications, none unread');
    await bellSays(tablet, 'Notifications, none unread');
    expect(await phone.getByTestId('unread-count').count()).toBe(0);
    expect(await inbox.locator('[data-testid="notification"][data-read="false"]').count()).toBe(0);
    expect(await inbox.getByRole('button', { name: 'Mark all as read' }).isDisabled()).toBe(true);
    await screenshot(phone, 'inbox-03-all-read', 'screen');
    // A reload shows what the server holds: read.
    await phone.getByRole('button', { name: 'Close' }).first().click();
    // Closing takes the dialog's own history entry back (a deferred history.back()); a reload sent
    // before that has happened is aborted by it (net::ERR_ABORTED), so wait until it has.
    await inbox.waitFor({ state: 'hidden' });
    // Polled with evaluate (run over the DevTools protocol): waitForFunction evaluates its predicate
    // with eval in the page, which the app's Content Security Policy (script-src 'self') refuses.
    await eventually('the dialog to take its history entry back', async () => ((await phone.evaluate('!(window.history.state && window.history.state.honeylendModal)')) ? true : undefined));
    await phone.reload();
    await bellSays(phone, 'Notifications, none unread');
    const answer = await system.request('GET', '/api/notifications', { token: borrower.token });
    expect(answer.body.map((notification: { read: boolean }) => notification.read)).toEqual([true, true, true]);
  });

  it('cancels a pending application from the wallet, after asking; the admin sees it cancelled and the borrower may apply again', async () => {
    const loan = await pendingLoan(system, borrower, 150_000);
    await phone.goto('/wallet');
    await textOf(phone.getByTestId('wallet-loan-status'), 'Pending');
    await phone.getByRole('button', { name: 'Cancel application' }).click();
    const confirm = phone.getByRole('dialog', { name: 'Cancel this application?' });
    await textOf(confirm, `${loan.loanNumber} for ₱150,000.00 will be withdrawn`);
    await screenshot(phone, 'cancel-01-confirm', 'screen');
    await confirm.getByRole('button', { name: 'Yes, cancel it' }).click();
    await confirm.waitFor({ state: 'detached' });
    await textOf(phone.getByTestId('wallet-loan-status'), 'Cancelled');
    await textOf(phone.getByTestId('loan-message'), 'You cancelled this application. You may apply again.');
    expect(await phone.getByRole('button', { name: 'Cancel application' }).count()).toBe(0);
    await screenshot(phone, 'cancel-02-cancelled', 'screen');

    const seen = await system.request('GET', `/api/admin/loans/${loan.id}`, { token: admin });
    expect(seen.body.status).toBe('cancelled');
    // The other device shows it cancelled too, live.
    await tablet.goto('/wallet');
    await textOf(tablet.getByTestId('wallet-loan-status'), 'Cancelled');
    // The dashboard: no active loan, and Quick loan is offered again (the API's own rule).
    await phone.goto('/loan-app');
    const card = phone.getByRole('region', { name: 'Active loan' });
    await textOf(card, 'No active loans');
    await card.getByRole('button', { name: 'Quick loan' }).waitFor();
    expect(pageErrors).toEqual([]);
  });
});
