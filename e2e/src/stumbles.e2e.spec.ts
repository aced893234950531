import { PRIVACY_NOTICE_VERSION } from '@honeylend/contracts';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { acceptDisclosure, approvedBorrower, verifiedBorrower, type ApiBorrower } from './support/borrowers.js';
import { launchChromium, phoneContext, screenshot } from './support/browser.js';
import { desktopContext } from './support/desktop.js';
import { eventually, latestOtp, textOf, uniquePhone } from './support/helpers.js';
import { startSystem, type RunningSystem } from './support/system.js';
import { requestWithdrawal } from './support/withdrawals.js';

/**
 * Issue 22 ("what borrowers and admins stumble on"), items 1, 2 and 11: a lost answer on the
 * withdrawal confirm step, a fresh tab's reconnect after a network drop, and typed data kept
 * across a backdrop tap, the back button and the admin console's desktop-only notice.
 */
describe('what borrowers and admins stumble on (issue 22)', () => {
  let system: RunningSystem;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    system = await startSystem();
    browser = await launchChromium();
  });

  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    await system?.stop();
  });

  async function phonePage(token: string): Promise<{ page: Page; context: BrowserContext }> {
    const context = await phoneContext(browser, system.baseUrl);
    contexts.push(context);
    await context.addInitScript(`window.localStorage.setItem('token', ${JSON.stringify(token)})`);
    const page = await context.newPage();
    onTestFailed(() => screenshot(page, `issue22-failed-${Date.now()}`, 'screen'));
    return { page, context };
  }

  async function serverWithdrawals(borrower: ApiBorrower): Promise<{ id: string; status: string; amount: number }[]> {
    const answer = await system.request('GET', '/api/withdrawals', { token: borrower.token });
    expect(answer.status).toBe(200);
    return answer.body;
  }

  async function openOtpStep(page: Page, amount: string) {
    await page.goto('/wallet');
    await page.getByRole('heading', { level: 1, name: 'Wallet' }).waitFor();
    await page.getByRole('button', { name: 'Withdraw money' }).click();
    const funds = page.getByRole('dialog', { name: 'Withdraw Funds' });
    await funds.getByLabel('Amount (₱)').fill(amount);
    await funds.getByRole('button', { name: 'Request withdrawal' }).click();
    const otpDialog = page.getByRole('dialog', { name: 'Enter OTP Code' });
    await otpDialog.waitFor();
    return otpDialog;
  }

  it('item 1: a lost answer to Verify OTP is retried with the same Idempotency-Key and ends with one withdrawal, not a dead end', async () => {
    const borrower = await approvedBorrower(system, 250_000);
    const { page } = await phonePage(borrower.token);
    const askedAt = new Date(Date.now() - 1_000).toISOString();
    const otpDialog = await openOtpStep(page, '6000');
    const code = await latestOtp(system, borrower.token, askedAt);

    // Weak mobile data: the server receives the request and answers, the answer never arrives;
    // the refetch of the list is lost as well, so the app cannot yet know the request exists.
    const keys: string[] = [];
    let losing = true;
    await page.route('**/api/withdrawals', async (route) => {
      const request = route.request();
      if (request.method() === 'POST') {
        keys.push((await request.headerValue('idempotency-key')) ?? '');
        if (losing) {
          await route.fetch();
          return route.abort('internetdisconnected');
        }
        return route.continue();
      }
      return losing ? route.abort('internetdisconnected') : route.continue();
    });
    await otpDialog.getByLabel('OTP code', { exact: true }).fill(code);
    await otpDialog.getByRole('button', { name: 'Verify OTP' }).click();
    await textOf(otpDialog, 'We could not confirm your withdrawal');
    await screenshot(page, 'issue22-01-lost-answer', 'screen');
    expect((await serverWithdrawals(borrower)).filter((w) => w.amount === 6000)).toHaveLength(1);

    // The connection is back: Verify again sends the same request under the same key, and the
    // server answers what it answered the first time (not 'This code has expired').
    losing = false;
    await otpDialog.getByRole('button', { name: 'Verify OTP' }).click();
    await otpDialog.waitFor({ state: 'detached' });
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[\w-]{8,128}$/);
    expect(keys[1]).toBe(keys[0]);
    await textOf(page.getByTestId('withdrawal').first(), '₱6,000.00');
    expect((await serverWithdrawals(borrower)).filter((w) => w.amount === 6000)).toHaveLength(1);
  });

  it('item 1: when the lost request did reach the server, the app finds it, closes the dialog and says so', async () => {
    const borrower = await approvedBorrower(system, 250_000);
    const { page } = await phonePage(borrower.token);
    const askedAt = new Date(Date.now() - 1_000).toISOString();
    const otpDialog = await openOtpStep(page, '7000');
    const code = await latestOtp(system, borrower.token, askedAt);
    let lost = 0;
    await page.route('**/api/withdrawals', async (route) => {
      if (route.request().method() === 'POST' && lost === 0) {
        lost += 1;
        await route.fetch();
        return route.abort('internetdisconnected');
      }
      return route.continue();
    });
    await otpDialog.getByLabel('OTP code', { exact: true }).fill(code);
    await otpDialog.getByRole('button', { name: 'Verify OTP' }).click();
    await otpDialog.waitFor({ state: 'detached' });
    // Found, and said as it is: requested, pending review (design §7).
    await textOf(page.locator('.toast[data-state="open"]'), 'Withdrawal requested');
    await textOf(page.locator('.toast[data-state="open"]'), 'is pending review');
    const row = page.getByTestId('withdrawal').first();
    await textOf(row, '₱7,000.00');
    await textOf(row, 'Pending');
    await screenshot(page, 'issue22-02-lost-answer-found', 'screen');
    expect(lost).toBe(1);
    expect((await serverWithdrawals(borrower)).filter((w) => w.amount === 7000)).toHaveLength(1);
  });

  it('item 1: a code already used says so, and "Send a new code" counts down when the limit is reached', async () => {
    const borrower = await approvedBorrower(system, 250_000);
    const askedAt = new Date(Date.now() - 1_000).toISOString();
    const challenge = await system.request('POST', '/api/withdrawals/otp', { token: borrower.token, body: { amount: 2000 } });
    expect(challenge.status).toBe(202);
    const otp = await latestOtp(system, borrower.token, askedAt);
    const body = { amount: 2000, bankName: 'UnionBank', bankAccountNumber: '109876543210', otp, challengeId: challenge.body.challengeId };
    expect((await system.request('POST', '/api/withdrawals', { token: borrower.token, body })).status).toBe(201);
    const again = await system.request('POST', '/api/withdrawals', { token: borrower.token, body });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ code: 'OTP_ALREADY_USED', message: 'This code was already used — see your withdrawals.' });

    // Two codes issued so far in this window (one above, one here); the limit is three.
    const { page } = await phonePage(borrower.token);
    const otpDialog = await openOtpStep(page, '3000');
    const resend = otpDialog.getByRole('button', { name: /new code/i });
    await resend.click();
    await textOf(page.locator('.toast[data-state="open"]'), 'Code sent');
    await resend.click();
    await textOf(otpDialog, /You can ask for a new code in \d+:\d\d/);
    expect(await otpDialog.getByRole('button', { name: /new code/i }).isDisabled()).toBe(true);
    await screenshot(page, 'issue22-03-resend-countdown', 'screen');
  });

  it('item 2: a tab that never received a live update catches up after a network drop', async () => {
    const borrower = await approvedBorrower(system, 250_000);
    const withdrawal = await requestWithdrawal(system, borrower, 4_000);
    const { page, context } = await phonePage(borrower.token);
    await page.goto('/wallet');
    const row = page.getByTestId('withdrawal').filter({ hasText: withdrawal.withdrawalNumber });
    await textOf(row, 'Pending', 10_000);
    // Give the socket time to connect, so the drop below is a drop of a live connection.
    await page.waitForTimeout(1_000);

    await context.setOffline(true);
    await page.waitForTimeout(1_500);
    const completed = await system.request('PUT', `/api/admin/withdrawals/${withdrawal.id}`, { token: await system.adminToken(), body: { status: 'completed' } });
    expect(completed.status, JSON.stringify(completed.body)).toBe(200);
    await page.waitForTimeout(1_500);
    await context.setOffline(false);

    // socket.io's backoff reconnects within ~10 s; then the tab refetches what it missed.
    await textOf(row, 'Completed', 20_000);
    await screenshot(page, 'issue22-04-reconnected', 'screen');
  });

  it('item 11: a backdrop tap keeps typed personal information, and the back button closes a dialog instead of leaving the page', async () => {
    const phone = uniquePhone();
    const registered = await system.request('POST', '/api/auth/register', { body: { phone, password: 'Sampaguita#2026', fullName: 'Andres Bonifacio', privacyNoticeVersion: PRIVACY_NOTICE_VERSION } });
    expect(registered.status).toBe(201);
    const { page } = await phonePage(registered.body.token);
    await page.goto('/profile');
    await page.getByRole('heading', { level: 1, name: 'Profile' }).waitFor();
    await page.getByRole('button', { name: 'Complete personal information' }).click();
    const form = page.getByRole('dialog', { name: 'Personal Information' });
    await form.getByLabel('Address').fill('1 Calle Real, Iloilo City');

    // A tap on the dimmed area outside the panel (its top-left corner).
    await page.locator('.dialog-backdrop').click({ position: { x: 4, y: 4 } });
    await form.getByText('Discard what you typed?').waitFor();
    await screenshot(page, 'issue22-05-backdrop-keeps', 'screen');
    await form.getByRole('button', { name: 'Keep editing' }).click();
    expect(await form.getByLabel('Address').inputValue()).toBe('1 Calle Real, Iloilo City');

    // The phone's back button with typed data: the page stays, the dialog asks.
    await page.goBack();
    expect(new URL(page.url()).pathname).toBe('/profile');
    await form.getByText('Discard what you typed?').waitFor();
    expect(await form.getByLabel('Address').inputValue()).toBe('1 Calle Real, Iloilo City');
    await form.getByRole('button', { name: 'Discard' }).click();
    await form.waitFor({ state: 'detached' });

    // With nothing typed, back simply closes the dialog; a second back then leaves the page as usual.
    await page.getByRole('button', { name: 'Complete personal information' }).click();
    await form.getByLabel('Address').waitFor();
    await page.goBack();
    await form.waitFor({ state: 'detached' });
    expect(new URL(page.url()).pathname).toBe('/profile');
    await page.getByRole('heading', { level: 1, name: 'Profile' }).waitFor();
  });

  it("item 11: an admin's open review dialog and typed rejection reason survive a resize below 1024 px and back", async () => {
    const borrower = await approvedBorrower(system, 250_000);
    const withdrawal = await requestWithdrawal(system, borrower, 3_500);
    const context = await desktopContext(browser, system.baseUrl, { token: await system.adminToken() });
    contexts.push(context);
    const page = await context.newPage();
    onTestFailed(() => screenshot(page, 'issue22-admin-failed', 'screen'));
    await page.goto('/management/withdrawal');
    await page.getByRole('heading', { level: 1, name: 'Withdrawal List' }).waitFor();
    await page
      .getByRole('row', { name: new RegExp(withdrawal.withdrawalNumber) })
      .getByRole('button', { name: 'Review' })
      .click();
    const detail = page.getByRole('dialog', { name: `Withdrawal ${withdrawal.withdrawalNumber}` });
    await detail.getByLabel(/Reason for a rejection/).fill('The account name does not match the member');

    await page.setViewportSize({ width: 900, height: 900 });
    await page.getByText('The management panel is desktop only').waitFor();
    await eventually('the review dialog to be hidden behind the notice', async () => ((await detail.isVisible()) ? undefined : true));
    await screenshot(page, 'issue22-06-admin-narrow', 'screen');

    await page.setViewportSize({ width: 1440, height: 900 });
    await detail.waitFor();
    expect(await detail.getByLabel(/Reason for a rejection/).inputValue()).toBe('The account name does not match the member');
    expect(await page.getByText('The management panel is desktop only').count()).toBe(0);

    // Item 17: the review names the account holder and takes the payout reference.
    await textOf(detail, 'Account holder');
    await textOf(detail, 'Gabriela Silang');
    await detail.getByLabel(/Payout reference/).fill('GCASH 7788-1122');
    await screenshot(page, 'issue22-14-admin-review-dialog', 'screen');
  });

  it('items 7, 8, 12, 13, 14 and 15 at 360 × 740: what the borrower sees, checked and photographed', async () => {
    const borrower = await verifiedBorrowerWithPendingLoan();
    const { page, context } = await phonePage(borrower.token);
    const tabs = page.getByRole('navigation', { name: 'Account' });

    // Item 7: an application with an admin's message shows both where the status is; no "you can apply".
    const flagged = await system.request('PUT', `/api/admin/loans/${borrower.loanId}`, {
      token: await system.adminToken(),
      body: { status: 'account_issue', message: 'Please upload a clearer photo of your ID.', notify: false },
    });
    expect(flagged.status, JSON.stringify(flagged.body)).toBe(200);
    await page.goto('/loan-app');
    const card = page.getByRole('region', { name: 'Loan application' });
    await textOf(card.getByTestId('loan-status'), 'Account issue');
    await textOf(card.getByTestId('loan-status-message'), 'Please upload a clearer photo of your ID.');
    expect(await page.getByText('Your account is verified').count()).toBe(0);
    await screenshot(page, 'issue22-07-dashboard-account-issue');

    // Item 14: the approval arrives live with the next step.
    const back = await system.request('PUT', `/api/admin/loans/${borrower.loanId}`, { token: await system.adminToken(), body: { status: 'pending', notify: false } });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    await textOf(card.getByTestId('loan-status'), 'Pending');
    const approved = await system.request('PUT', `/api/admin/loans/${borrower.loanId}`, { token: await system.adminToken(), body: { status: 'approved', notify: true } });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    await textOf(page.locator('.toast[data-state="open"]'), 'Your loan was approved', 10_000);
    // The money moves once the borrower accepts the Disclosure Statement (RA 3765); the next step then appears live.
    await acceptDisclosure(system, borrower.token, borrower.loanId);
    await page.getByRole('link', { name: 'Withdraw now' }).waitFor();
    await screenshot(page, 'issue22-08-approved-live', 'screen');

    // Item 12: the Wallet tab opens at its top, even from a dashboard scrolled down.
    await page.evaluate('window.scrollTo(0, document.body.scrollHeight)');
    expect(await page.evaluate('window.scrollY')).toBeGreaterThan(0);
    await tabs.getByRole('link', { name: 'WALLET' }).click();
    await page.getByRole('heading', { level: 1, name: 'Wallet' }).waitFor();
    expect(await page.evaluate('window.scrollY')).toBe(0);

    // Item 15: too much says how much can go, where the amount is typed.
    await page.getByRole('button', { name: 'Withdraw money' }).click();
    const funds = page.getByRole('dialog', { name: 'Withdraw Funds' });
    await funds.getByLabel('Amount (₱)').fill('9,999,999');
    await funds.getByRole('button', { name: 'Request withdrawal' }).click();
    await textOf(funds, 'You can withdraw up to ₱120,000.00');
    await screenshot(page, 'issue22-09-withdraw-up-to', 'screen');
    await page.goBack();
    await funds.waitFor({ state: 'detached' });

    // Item 13: offline, a banner says the data may be stale; it goes when the connection is back.
    await page.getByRole('button', { name: 'Close notification' }).click();
    await page.locator('.toast[data-state="open"]').waitFor({ state: 'detached' });
    await context.setOffline(true);
    await textOf(page.locator('.offline-banner'), 'No internet connection.');
    await screenshot(page, 'issue22-10-offline', 'screen');
    await context.setOffline(false);
    await page.locator('.offline-banner').waitFor({ state: 'detached' });

    // Item 8: Home in the signed-in menu is the dashboard.
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('dialog', { name: 'Menu' }).getByRole('link', { name: 'Home' }).click();
    await page.waitForURL('**/loan-app');
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
  });

  it('item 12 at 360 × 740: Apply now in the No Loan dialog opens the application; items 4 and 5 show the cost before Submit', async () => {
    const borrower = await verifiedBorrower(system, 'Diego Silang');
    const { page } = await phonePage(borrower.token);
    await page.goto('/profile');
    await page.getByRole('button', { name: 'Payment Schedule' }).click();
    await page.getByRole('dialog', { name: 'No Loan Application' }).getByRole('button', { name: 'Apply now' }).click();
    const apply = page.getByRole('dialog', { name: 'Apply for a Loan' });
    await apply.waitFor();
    expect(new URL(page.url()).pathname).toBe('/loan-app');
    await apply.getByLabel('Amount (₱)').fill('100000');
    await apply.getByRole('button', { name: '12 months' }).click();
    const cost = apply.getByRole('region', { name: 'What this loan costs' });
    await textOf(cost, '₱130,000.00');
    await textOf(cost, '₱30,000.00');
    await textOf(cost, '54.05%');
    await cost.scrollIntoViewIfNeeded();
    await screenshot(page, 'issue22-11-apply-cost', 'screen');
  });

  it('item 10 at 1440 × 900: the withdrawal stats show rejected requests apart from the total amount', async () => {
    const borrower = await approvedBorrower(system, 250_000);
    const kept = await requestWithdrawal(system, borrower, 2_000);
    const refused = await requestWithdrawal(system, borrower, 5_000);
    expect(kept.id).not.toBe(refused.id);
    const before = (await system.request('GET', '/api/admin/stats', { token: await system.adminToken() })).body.withdrawals;
    const rejected = await system.request('PUT', `/api/admin/withdrawals/${refused.id}`, { token: await system.adminToken(), body: { status: 'rejected', reason: 'Duplicate request' } });
    expect(rejected.status).toBe(200);
    const after = (await system.request('GET', '/api/admin/stats', { token: await system.adminToken() })).body.withdrawals;
    expect(after.totalAmount).toBe(before.totalAmount - 5_000);
    expect(after.rejectedAmount).toBe(before.rejectedAmount + 5_000);
    const context = await desktopContext(browser, system.baseUrl, { token: await system.adminToken() });
    contexts.push(context);
    const page = await context.newPage();
    await page.goto('/management/withdrawal');
    await page.getByRole('group', { name: 'Rejected Amount' }).waitFor();
    await screenshot(page, 'issue22-12-admin-withdrawal-stats', 'screen');
  });

  it('item 16 at 1440 × 900: the loan review drawer shows salary, payment to income, purpose and documents', async () => {
    const borrower = await verifiedBorrower(system, 'Josefa Llanes', {
      address: '8 Luna Street, Lipa City, Batangas',
      monthlySalary: 25_000,
      referenceName: 'Marcela Agoncillo',
      bankName: 'BPI',
      bankAccountNumber: '0987654321',
    });
    // ₱150,000 over 12 months at 2.5%: ₱16,250 a month, 65% of a ₱25,000 salary.
    const loan = await system.request('POST', '/api/loans', { token: borrower.token, body: { amount: 150_000, purpose: 'A second-hand tricycle', termMonths: 12 } });
    expect(loan.status, JSON.stringify(loan.body)).toBe(201);
    const context = await desktopContext(browser, system.baseUrl, { token: await system.adminToken() });
    contexts.push(context);
    const page = await context.newPage();
    await page.goto('/management/borrowing');
    await page.getByRole('heading', { level: 1, name: 'Borrowing List' }).waitFor();
    await page
      .getByRole('row', { name: new RegExp(loan.body.loanNumber) })
      .getByRole('button', { name: 'Review' })
      .click();
    const drawer = page.getByRole('dialog', { name: `Review ${loan.body.loanNumber}` });
    await textOf(drawer.getByTestId('payment-to-income'), '65% of the monthly salary', 10_000);
    await textOf(drawer, '₱25,000.00');
    await textOf(drawer, '₱16,250.00');
    await textOf(drawer, 'A second-hand tricycle');
    expect(await drawer.getByRole('img', { name: 'Selfie' }).count()).toBe(1);
    await screenshot(page, 'issue22-13-admin-loan-review', 'screen');
  });

  /** A verified borrower (through the API) with a ₱120,000 application pending. */
  async function verifiedBorrowerWithPendingLoan(): Promise<ApiBorrower & { loanId: string }> {
    const borrower = await verifiedBorrower(system, 'Teresa Magbanua');
    const loan = await system.request('POST', '/api/loans', { token: borrower.token, body: { amount: 120_000, purpose: 'Stock for a sari-sari store', termMonths: 12 } });
    expect(loan.status, JSON.stringify(loan.body)).toBe(201);
    return { ...borrower, loanId: loan.body.id };
  }
});
