import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { plainAdmin, type ApiAdmin } from './support/admins.js';
import { verifiedBorrower, type ApiBorrower } from './support/borrowers.js';
import { collectPageErrors, launchChromium, phoneContext, screenshot } from './support/browser.js';
import { confirm, desktopContext } from './support/desktop.js';
import { eventually, textOf } from './support/helpers.js';
import { startSystem, type RunningSystem } from './support/system.js';

/**
 * Four eyes on money (design §11, issue 17): an admin adjusts a balance in the console, which only
 * asks; a second admin, whose Approvals page is already open, sees the request arrive live,
 * approves it, and the borrower's wallet — open on a phone the whole time — shows the new balance
 * without a reload.
 */
describe('four eyes on money in the browser', () => {
  let system: RunningSystem;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  let borrower: ApiBorrower;
  let maker: ApiAdmin;

  beforeAll(async () => {
    system = await startSystem();
    browser = await launchChromium();
    borrower = await verifiedBorrower(system, 'Apolinario Mabini');
    maker = await plainAdmin(system, 'Andres Maker');
  });

  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    await system?.stop();
  });

  async function desktop(token: string): Promise<Page> {
    const context = await desktopContext(browser, system.baseUrl, { token });
    contexts.push(context);
    return context.newPage();
  }

  it("an admin's balance adjustment waits; a second admin approves it on the live Approvals page; the wallet changes without a reload", async () => {
    // The borrower's wallet, open on a phone.
    const phone = await phoneContext(browser, system.baseUrl);
    contexts.push(phone);
    await phone.addInitScript(`window.localStorage.setItem('token', ${JSON.stringify(borrower.token)})`);
    const wallet = await phone.newPage();
    const walletErrors = collectPageErrors(wallet);
    onTestFailed(() => screenshot(wallet, 'four-eyes-wallet-failed', 'screen'));
    await wallet.goto('/wallet');
    await wallet.getByRole('heading', { level: 1, name: 'Wallet' }).waitFor();
    await wallet.getByRole('button', { name: 'Show balance' }).click();
    await textOf(wallet.getByTestId('wallet-balance'), '₱0.00');
    await wallet.evaluate('window.__sameDocument = true');

    // The checker (the main admin) has the Approvals page open before anything is asked.
    const checker = await desktop(await system.adminToken());
    const checkerErrors = collectPageErrors(checker);
    onTestFailed(() => screenshot(checker, 'four-eyes-checker-failed', 'screen'));
    await checker.goto('/management/approvals');
    await checker.getByRole('heading', { level: 1, name: 'Approvals' }).waitFor();
    await checker.getByText('No requests').waitFor();
    await checker.evaluate('window.__sameDocument = true');

    // The maker adjusts the balance in the Members list: it is only sent for approval.
    const console_ = await desktop(maker.token);
    const makerErrors = collectPageErrors(console_);
    onTestFailed(() => screenshot(console_, 'four-eyes-maker-failed', 'screen'));
    await console_.goto('/management/members');
    await console_.getByRole('searchbox', { name: 'Search members' }).fill('Mabini');
    await console_.getByRole('searchbox', { name: 'Search members' }).press('Enter');
    const memberRow = console_.getByRole('row', { name: /Apolinario Mabini/ });
    await eventually('the search to leave one member', async () => ((await console_.locator('.ant-table-tbody tr.ant-table-row').count()) === 1 ? true : undefined), 10_000);
    await memberRow.getByRole('button', { name: 'Adjust balance' }).click();
    const dialog = console_.getByRole('dialog', { name: 'Adjust balance' });
    await dialog.getByLabel('Amount in pesos (negative to debit)').fill('1500');
    await dialog.getByLabel('Reason').fill('Refund of a double charge');
    await dialog.getByRole('button', { name: 'Request adjustment' }).click();
    await textOf(console_.getByRole('status').filter({ hasText: 'Sent for approval' }), 'happens only when a different admin approves it');
    await textOf(memberRow, '₱0.00');
    await screenshot(console_, 'four-eyes-01-sent-for-approval', 'screen');

    // The maker's own request: Approve is disabled, and says why.
    await console_.goto('/management/approvals');
    const ownRow = console_.getByRole('row', { name: /Apolinario Mabini/ });
    await textOf(ownRow, 'You');
    const ownApprove = ownRow.getByRole('button', { name: 'Approve' });
    expect(await ownApprove.isDisabled()).toBe(true);
    expect(await ownApprove.getAttribute('aria-description')).toContain('a different admin must approve it');
    await screenshot(console_, 'four-eyes-02-own-request');

    // It reached the checker's open page without a reload, with the badge's count.
    const row = checker.getByRole('row', { name: /Apolinario Mabini/ });
    await textOf(row, 'Andres Maker', 10_000);
    await textOf(row, '₱1,500.00');
    await textOf(row, 'Refund of a double charge');
    await textOf(checker.getByTestId('approvals-badge'), '1');
    expect(await checker.evaluate('window.__sameDocument')).toBe(true);
    // Nothing moved yet.
    expect((await system.request('GET', `/api/admin/users/${borrower.id}`, { token: maker.token })).body.balance).toBe(0);
    await screenshot(checker, 'four-eyes-03-checker-sees-it');

    await row.getByRole('button', { name: 'Approve' }).click();
    await confirm(checker, 'Approve');
    await textOf(checker.getByRole('status').filter({ hasText: 'Approved' }), 'Credit ₱1,500.00');
    await textOf(row, 'Carried out');

    // The borrower's wallet, never reloaded, shows the money.
    await textOf(wallet.getByTestId('wallet-balance'), '₱1,500.00', 10_000);
    expect(await wallet.evaluate('window.__sameDocument')).toBe(true);
    await screenshot(wallet, 'four-eyes-04-wallet-credited');
    // The badge empties.
    await eventually('the badge to clear', async () => ((await checker.getByTestId('approvals-badge').count()) === 0 ? true : undefined), 10_000);

    expect(walletErrors).toEqual([]);
    expect(checkerErrors).toEqual([]);
    expect(makerErrors).toEqual([]);
  });

  it('the main admin switches four eyes off for balance adjustments in Settings; then an adjustment posts at once, and back on it waits again', async () => {
    const main = await desktop(await system.adminToken());
    const errors = collectPageErrors(main);
    onTestFailed(() => screenshot(main, 'four-eyes-settings-failed', 'screen'));
    await main.goto('/management/settings');
    const card = main.locator('.ant-card').filter({ hasText: 'Four eyes (approvals)' });
    const adjustments = card.getByRole('switch', { name: 'Balance adjustment needs a second admin' });
    await eventually('the settings to load', async () => ((await adjustments.getAttribute('aria-checked')) === 'true' ? true : undefined), 10_000);
    expect(await card.getByLabel('Withdrawal completions from').inputValue()).toBe('50,000');
    await adjustments.click();
    await card.getByRole('button', { name: 'Save approval settings' }).click();
    await textOf(main.getByRole('status').filter({ hasText: 'Approval settings saved' }), 'next command');
    await screenshot(main, 'four-eyes-05-settings');
    const direct = await system.request('POST', `/api/admin/users/${borrower.id}/balance-adjustments`, { token: maker.token, body: { amount: 10, reason: 'Rounding difference' } });
    expect(direct.status).toBe(201);

    await adjustments.click();
    await card.getByRole('button', { name: 'Save approval settings' }).click();
    await eventually('the setting to be saved', async () => ((await system.request('GET', '/api/admin/settings/approvals', { token: maker.token })).body.required.balance_adjustment === true ? true : undefined), 10_000);
    const waiting = await system.request('POST', `/api/admin/users/${borrower.id}/balance-adjustments`, { token: maker.token, body: { amount: 10, reason: 'Rounding difference' } });
    expect(waiting.status).toBe(202);
    expect(errors).toEqual([]);
  });
});
