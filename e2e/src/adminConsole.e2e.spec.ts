import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { plainAdmin } from './support/admins.js';
import { acceptDisclosure, approvedBorrower, pendingLoan, verifiedBorrower, type ApiBorrower } from './support/borrowers.js';
import { collectPageErrors, launchChromium, phoneContext, screenshot } from './support/browser.js';
import { chooseOption, confirm, desktopContext, openConfirmation } from './support/desktop.js';
import { eventually, textOf } from './support/helpers.js';
import { startSystem, type RunningSystem } from './support/system.js';
import { requestWithdrawal } from './support/withdrawals.js';

const ACCESS_DENIED = "Access Denied - You don't have permission to access the management panel.";

/** The number a stat card shows, e.g. "Pending" → 2. */
async function statCard(page: Page, title: string): Promise<string> {
  return ((await page.getByRole('group', { name: title }).locator('.ant-statistic-content').textContent()) ?? '').trim();
}

describe('admin console at 1440 × 900 (issue 7)', () => {
  let system: RunningSystem;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  let member: ApiBorrower;
  let applicant: ApiBorrower;
  let loan: { id: string; loanNumber: string };
  let payee: ApiBorrower;
  let withdrawals: { id: string; withdrawalNumber: string }[];

  beforeAll(async () => {
    system = await startSystem();
    browser = await launchChromium();
    // Seeded through the public API, as borrowers would: one member to suspend, one pending
    // application, and a borrower with an approved loan who asks for two withdrawals.
    member = await verifiedBorrower(system, 'Emilio Jacinto');
    applicant = await verifiedBorrower(system, 'Melchora Aquino');
    loan = await pendingLoan(system, applicant);
    payee = await approvedBorrower(system, 250_000);
    withdrawals = [await requestWithdrawal(system, payee, 5_000), await requestWithdrawal(system, payee, 7_500)];
  });

  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    await system?.stop();
  });

  async function open(options: Parameters<typeof desktopContext>[2] = {}): Promise<Page> {
    const context = await desktopContext(browser, system.baseUrl, options);
    contexts.push(context);
    return context.newPage();
  }

  it('signs in, suspends and reactivates a member, approves a loan, decides withdrawals live, exports the CSV, manages an IP rule and opens the audit timeline', async () => {
    const page = await open();
    const errors = collectPageErrors(page);
    onTestFailed(() => screenshot(page, 'admin-failed', 'screen'));

    // Admin login: 'Success' toast, then /management.
    await page.goto('/admin-login');
    await page.getByLabel('Username').fill(system.admin.username);
    await page.getByLabel('Password').fill(system.admin.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/management');
    await textOf(page.getByRole('status').filter({ hasText: 'Success' }), 'Admin login successful');
    await page.getByRole('heading', { level: 1, name: 'Members' }).waitFor();

    // Members search.
    await page.getByRole('searchbox', { name: 'Search members' }).fill('Jacinto');
    await page.getByRole('searchbox', { name: 'Search members' }).press('Enter');
    const memberRow = page.getByRole('row', { name: /Emilio Jacinto/ });
    await eventually('the search to leave one member', async () => ((await page.locator('.ant-table-tbody tr.ant-table-row').count()) === 1 ? true : undefined), 10_000);
    await memberRow.waitFor();
    await screenshot(page, 'admin-01-members');

    // Suspend, then reactivate, each after its confirmation.
    await memberRow.getByRole('button', { name: 'Deactivate' }).click();
    await confirm(page, 'Deactivate');
    await textOf(memberRow, 'Suspended', 10_000);
    expect((await system.request('GET', `/api/admin/users/${member.id}`, { token: await system.adminToken() })).body.status).toBe('suspended');
    await memberRow.getByRole('button', { name: 'Activate' }).click();
    await confirm(page, 'Activate');
    await textOf(memberRow, 'Active', 10_000);
    expect((await system.request('GET', `/api/admin/users/${member.id}`, { token: await system.adminToken() })).body.status).toBe('active');

    // Approve the pending loan while its borrower's app is open: their socket receives it.
    const borrowerContext = await phoneContext(browser, system.baseUrl);
    contexts.push(borrowerContext);
    const borrowerPage = await borrowerContext.newPage();
    const borrowerFrames: string[] = [];
    borrowerPage.on('websocket', (socket) => socket.on('framereceived', ({ payload }) => borrowerFrames.push(String(payload))));
    await borrowerContext.addInitScript(`window.localStorage.setItem('token', ${JSON.stringify(applicant.token)})`);
    await borrowerPage.goto('/loan-app');
    await eventually('the borrower socket to connect', async () => (borrowerFrames.some((frame) => frame.startsWith('40')) ? true : undefined), 15_000);

    await page.getByRole('menuitem', { name: 'Borrowing List' }).click();
    await page.getByRole('heading', { level: 1, name: 'Borrowing List' }).waitFor();
    const loanRow = page.getByRole('row', { name: new RegExp(loan.loanNumber) });
    await textOf(loanRow, 'Pending', 10_000);
    await loanRow.getByRole('button', { name: 'Update status' }).click();
    const statusDialog = page.getByRole('dialog', { name: `Update status: ${loan.loanNumber}` });
    await statusDialog.waitFor();
    await chooseOption(page, 'New status', 'Approved');
    await statusDialog.getByLabel('Message to the borrower').fill('Approved: please accept the Disclosure Statement in the app.');
    await statusDialog.getByRole('button', { name: 'Update status' }).click();
    // RA 3765: approval waits for the borrower's acceptance of the Disclosure Statement; no money yet.
    await textOf(loanRow, 'Approved', 15_000);
    await textOf(loanRow, "awaiting the borrower's acceptance", 15_000);
    // The borrower accepts: disbursement opens the account and the row settles on Active without a reload.
    await acceptDisclosure(system, applicant.token, loan.id);
    await textOf(loanRow, 'Active', 15_000);
    expect(await loanRow.getByTestId('awaiting-acceptance').count()).toBe(0);
    const pushed = await eventually(
      "the borrower's loan.updated",
      async () =>
        borrowerFrames
          .filter((frame) => frame.startsWith('42["loan.updated"'))
          .map((frame) => JSON.parse(frame.slice(2)) as [string, { doc: { id: string; status: string } }])
          .find(([, message]) => message.doc.id === loan.id && message.doc.status === 'approved'),
      15_000,
    );
    expect(pushed[1].doc.status).toBe('approved');
    await screenshot(page, 'admin-02-borrowing');

    // Withdrawals: a second admin watches the stat cards while the first decides two requests.
    const watcher = await open({ token: await system.adminToken() });
    await watcher.goto('/management/withdrawal');
    await eventually('the stat cards to load', async () => ((await statCard(watcher, 'Pending')) === '2' ? true : undefined), 15_000);
    expect(await statCard(watcher, 'Processed')).toBe('0');
    expect(await statCard(watcher, 'Total Requests')).toBe('2');
    await watcher.evaluate('window.__notReloaded = true');

    await page.getByRole('menuitem', { name: 'Withdrawal List' }).click();
    await page.getByRole('heading', { level: 1, name: 'Withdrawal List' }).waitFor();
    const [toComplete, toReject] = withdrawals as [(typeof withdrawals)[0], (typeof withdrawals)[0]];

    await page
      .getByRole('row', { name: new RegExp(toComplete.withdrawalNumber) })
      .getByRole('button', { name: 'Review' })
      .click();
    let detail = page.getByRole('dialog', { name: `Withdrawal ${toComplete.withdrawalNumber}` });
    await openConfirmation(page, detail.getByRole('button', { name: 'Complete' }));
    await confirm(page, 'Complete');
    await detail.waitFor({ state: 'hidden' });
    await textOf(page.getByRole('row', { name: new RegExp(toComplete.withdrawalNumber) }), 'Completed', 10_000);
    await eventually('Processed to read 1 for the watcher', async () => ((await statCard(watcher, 'Processed')) === '1' ? true : undefined), 15_000);
    expect(await statCard(watcher, 'Pending')).toBe('1');

    await page
      .getByRole('row', { name: new RegExp(toReject.withdrawalNumber) })
      .getByRole('button', { name: 'Review' })
      .click();
    detail = page.getByRole('dialog', { name: `Withdrawal ${toReject.withdrawalNumber}` });
    await detail.getByLabel(/Reason for a rejection/).fill('Account name does not match');
    await openConfirmation(page, detail.getByRole('button', { name: 'Reject' }));
    await textOf(page.locator('.ant-popover:not(.ant-popover-hidden)'), 'will be refunded');
    await confirm(page, 'Reject');
    await detail.waitFor({ state: 'hidden' });
    await textOf(page.getByRole('row', { name: new RegExp(toReject.withdrawalNumber) }), 'Rejected', 10_000);
    await eventually('Pending to read 0 for the watcher', async () => ((await statCard(watcher, 'Pending')) === '0' ? true : undefined), 15_000);
    expect(await statCard(watcher, 'Processed')).toBe('1');
    // The watcher's page was never reloaded: the cards changed over the socket.
    expect(await watcher.evaluate('window.__notReloaded')).toBe(true);
    const stats = (await system.request('GET', '/api/admin/stats', { token: await system.adminToken() })).body;
    expect(stats.withdrawals).toMatchObject({ total: 2, processed: 1, pending: 0, rejected: 1 });
    await screenshot(watcher, 'admin-03-withdrawals-watcher');

    // Export: the file holds exactly the rows on screen.
    const numbersOnScreen = (await page.locator('.ant-table-tbody tr.ant-table-row td:first-child').allTextContents()).map((text) => text.trim());
    expect(numbersOnScreen.sort()).toEqual(withdrawals.map((withdrawal) => withdrawal.withdrawalNumber).sort());
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export report' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^withdrawals-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = readFileSync(await download.path(), 'utf8').replace(/^\uFEFF/, '');
    const lines = csv.trim().split(/\r?\n/);
    expect(lines[0]).toContain('"Withdrawal number"');
    const numbersInFile = lines.slice(1).map((line) => /^"([^"]*)"/.exec(line)?.[1]);
    expect(numbersInFile.sort()).toEqual(numbersOnScreen.sort());
    expect(csv).toContain('"completed"');
    expect(csv).toContain('"rejected"');

    // IP rule: the empty form says what is missing; the rule is added, then removed after a confirmation.
    await page.getByRole('menuitem', { name: 'Settings' }).click();
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    await page.getByText('No IP Restrictions Active').waitFor();
    await page.getByRole('button', { name: 'Add IP' }).click();
    await textOf(page.getByRole('alert').filter({ hasText: 'Missing Information' }), 'Please enter an IP address');
    await page.getByRole('textbox', { name: 'IP address', exact: true }).fill('127.0.0.1');
    await page.getByRole('textbox', { name: 'Description', exact: true }).fill('Office');
    await page.getByRole('button', { name: 'Add IP' }).click();
    const ipRow = page.locator('.ant-list-item', { hasText: '127.0.0.1' });
    await ipRow.waitFor();
    expect((await system.request('GET', '/api/admin/allowed-ips', { token: await system.adminToken() })).body).toHaveLength(1);
    await screenshot(page, 'admin-04-settings');
    await ipRow.getByRole('button', { name: 'Remove' }).click();
    await textOf(page.locator('.ant-popover:not(.ant-popover-hidden)'), 'Are you sure you want to remove 127.0.0.1');
    await confirm(page, 'Remove');
    await page.getByText('No IP Restrictions Active').waitFor();
    expect((await system.request('GET', '/api/admin/allowed-ips', { token: await system.adminToken() })).body).toEqual([]);

    // The member's audit timeline, newest first (issue 22): the two status changes, then registration last, each with type, time, actor and IP.
    await page.getByRole('menuitem', { name: 'Members' }).click();
    await page.getByRole('searchbox', { name: 'Search members' }).fill('Jacinto');
    await page.getByRole('searchbox', { name: 'Search members' }).press('Enter');
    await eventually('the search to leave one member', async () => ((await page.locator('.ant-table-tbody tr.ant-table-row').count()) === 1 ? true : undefined), 10_000);
    await page
      .getByRole('row', { name: /Emilio Jacinto/ })
      .getByRole('button', { name: 'History' })
      .click();
    const drawer = page.getByRole('dialog', { name: 'Audit trail: Emilio Jacinto' });
    await drawer.locator('.admin-audit-event').first().waitFor();
    const entries = await drawer
      .locator('.admin-audit-event')
      .evaluateAll((nodes) => nodes.map((node) => ({ type: node.getAttribute('aria-label'), time: node.querySelector('time')?.getAttribute('datetime') ?? '', text: node.textContent ?? '' })));
    const types = entries.map((entry) => entry.type);
    expect(types.at(-1)).toBe('Member registered');
    const statusChanges = entries.filter((entry) => entry.type === 'Member status changed');
    expect(statusChanges).toHaveLength(2);
    expect(statusChanges[0].text).toContain('To: active');
    expect(statusChanges[1].text).toContain('To: suspended');
    expect(types.indexOf('Member status changed')).toBeLessThan(types.indexOf('Member registered'));
    for (const entry of statusChanges) {
      expect(entry.text).toMatch(/by .*\(admin\)/);
      expect(entry.text).toMatch(/IP (127\.0\.0\.1|::ffff:127\.0\.0\.1|::1)/);
    }
    const times = entries.map((entry) => Date.parse(entry.time));
    expect(times.every((time) => Number.isFinite(time))).toBe(true);
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    await screenshot(page, 'admin-05-audit', 'screen');

    expect(errors).toEqual([]);
  });

  it('keeps the admins list in Settings live: a colleague added and deleted by the main admin appears and goes without a reload', async () => {
    const watcher = await plainAdmin(system, 'Trinidad Tecson');
    const page = await open({ token: watcher.token });
    const errors = collectPageErrors(page);
    onTestFailed(() => screenshot(page, 'admin-live-settings-failed', 'screen'));
    await page.goto('/management/settings');
    await page.getByRole('row', { name: /Trinidad Tecson/ }).waitFor();

    await page.evaluate('window.__notReloaded = true');
    const colleague = await plainAdmin(system, 'Gregoria de Jesus');
    const colleagueRow = page.getByRole('row', { name: /Gregoria de Jesus/ });
    await colleagueRow.waitFor({ timeout: 15_000 });
    expect(await colleagueRow.getByRole('button').count()).toBe(0);
    const deleted = await system.request('DELETE', `/api/admin/users/${colleague.id}`, { token: await system.adminToken() });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    await colleagueRow.waitFor({ state: 'detached', timeout: 15_000 });
    expect(await page.evaluate('window.__notReloaded')).toBe(true);

    expect(errors).toEqual([]);
  });

  it("shows a plain admin the 'Main Admin' row masked with no actions, no IP restrictions and no way to add admins", async () => {
    const staff = await plainAdmin(system, 'Teresa Magbanua');
    const page = await open({ token: staff.token });
    const errors = collectPageErrors(page);
    onTestFailed(() => screenshot(page, 'admin-plain-failed', 'screen'));

    await page.goto('/management/settings');
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    const mainAdminRow = page.getByRole('row', { name: /Main Admin/ });
    await mainAdminRow.waitFor();
    expect(await mainAdminRow.textContent()).toContain('••••');
    expect(await mainAdminRow.getByRole('button').count()).toBe(0);
    // Their own row has no actions either: only the main admin edits admin accounts.
    const ownRow = page.getByRole('row', { name: new RegExp(staff.fullName) });
    await ownRow.waitFor();
    expect(await ownRow.getByRole('button').count()).toBe(0);
    expect(await page.getByText('IP Access Restrictions').count()).toBe(0);
    expect(await page.getByRole('form', { name: 'Add admin' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Add admin' }).count()).toBe(0);
    // Nor does the API let them, whatever the page shows.
    const refused = await system.request('POST', '/api/admin/create-admin', { token: staff.token, body: { email: 'sneaky@honeylend.test', password: 'Sampaguita#2026' } });
    expect(refused.status).toBe(403);
    await screenshot(page, 'admin-06-settings-plain-admin');

    expect(errors).toEqual([]);
  });

  it("says 'Charts are unavailable' with a Retry when the daily stats cannot be read, and draws the charts on Retry", async () => {
    const page = await open({ token: await system.adminToken() });
    // The server's answer to an unavailable read model, until the Retry.
    let unavailable = true;
    await page.route('**/api/admin/stats/daily?*', (route) =>
      unavailable ? route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ message: 'Service temporarily unavailable', code: 'UNAVAILABLE' }) }) : route.continue(),
    );
    await page.goto('/management/members');
    const failure = page.getByRole('alert').filter({ hasText: 'Charts are unavailable' });
    await textOf(failure, 'Failed to fetch chart data: Service temporarily unavailable', 15_000);
    // The members table does not depend on the charts.
    await page.getByRole('row', { name: /Emilio Jacinto/ }).waitFor();
    await screenshot(page, 'admin-07-charts-unavailable');

    unavailable = false;
    await failure.getByRole('button', { name: 'Retry' }).click();
    const overview = page.getByRole('region', { name: 'Overview' });
    for (const title of ['Loan applications per day', 'Withdrawal requests per day', 'Loan amount by status']) await overview.getByText(title).waitFor();
    await eventually('the three charts to be drawn', async () => ((await overview.locator('canvas').count()) >= 3 ? true : undefined), 15_000);
    expect(await failure.count()).toBe(0);
  });

  it("edits a pending loan's amount and term in its row (term 6–60), and deletes a pending loan after its confirmation", async () => {
    const borrower = await verifiedBorrower(system, 'Gregoria de Jesus');
    const pending = await pendingLoan(system, borrower, 90_000);
    const page = await open({ token: await system.adminToken() });
    const errors = collectPageErrors(page);
    onTestFailed(() => screenshot(page, 'admin-terms-failed', 'screen'));
    const adminToken = await system.adminToken();
    const stored = async () => (await system.request('GET', '/api/admin/loans?search=' + pending.loanNumber, { token: adminToken })).body.items[0];

    await page.goto('/management/borrowing');
    const row = page.getByRole('row', { name: new RegExp(pending.loanNumber) });
    await row.getByRole('button', { name: 'Edit terms' }).click();
    const amount = row.getByRole('spinbutton', { name: 'Amount' });
    const term = row.getByRole('spinbutton', { name: 'Term in months' });
    expect(await amount.inputValue()).toBe('90,000');

    // The term field holds the admin's limits: 61 months is brought back to 60 (the API refuses 61 too).
    await amount.fill('150000');
    await term.fill('61');
    await term.blur();
    expect(await term.inputValue()).toBe('60');
    await row.getByRole('button', { name: 'Save' }).click();
    await textOf(row, '₱150,000.00', 10_000);
    await textOf(row, '60 months', 10_000);
    expect(await stored()).toMatchObject({ amount: 150_000, termMonths: 60, status: 'pending' });
    expect((await system.request('PUT', `/api/admin/loans/${pending.id}`, { token: adminToken, body: { termMonths: 61 } })).status).toBe(400);

    await row.getByRole('button', { name: 'Delete' }).click();
    await confirm(page, 'Delete');
    await row.waitFor({ state: 'detached', timeout: 10_000 });
    expect(await stored()).toBeUndefined();
    expect(errors).toEqual([]);
  });

  it('shows Access Denied with a link to admin login to a borrower token on /management', async () => {
    const page = await open({ token: member.token });
    await page.goto('/management');
    await page.getByText(ACCESS_DENIED).waitFor();
    await page.getByRole('link', { name: 'Go to admin login' }).click();
    await page.waitForURL('**/admin-login');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
  });

  it('shows the desktop-only notice in a 900 px wide window', async () => {
    const page = await open({ token: await system.adminToken(), viewport: { width: 900, height: 800 } });
    await page.goto('/management/withdrawal');
    await page.getByText('The management panel is desktop only').waitFor();
    expect(await page.getByRole('menuitem', { name: 'Withdrawal List' }).count()).toBe(0);
  });
});
