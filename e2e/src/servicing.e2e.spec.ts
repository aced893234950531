import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { collectPageErrors, horizontalOverflow, launchChromium, phoneContext, screenshot } from './support/browser.js';
import { approvedBorrower, type ApiBorrower } from './support/borrowers.js';
import { desktopContext } from './support/desktop.js';
import { textOf } from './support/helpers.js';
import { startSystem, type RunningSystem } from './support/system.js';

/**
 * Issue 15: a borrower pays an instalment from the wallet on a phone-sized page — the Pay dialog
 * confirms the allocation the loan's fold computes, then shows the receipt — and the admin console,
 * open on the loan's repayments, shows the payment live, without a reload.
 */
describe('paying an instalment from the wallet (issue 15)', () => {
  let system: RunningSystem;
  let browser: Browser;
  let borrower: ApiBorrower & { loanId: string };
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    system = await startSystem();
    browser = await launchChromium();
    // ₱250,000 over 24 months at 2.5 %: instalments of ₱16,666.66 (₱10,416.66 principal, ₱6,250 interest).
    borrower = await approvedBorrower(system, 250_000);
  });

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await system?.stop();
  });

  it('pays the next instalment at 360 × 740, confirms its allocation, and the admin sees the receipt live', async () => {
    const admin = await desktopContext(browser, system.baseUrl, { token: await system.adminToken() });
    contexts.push(admin);
    const console_ = await admin.newPage();
    onTestFailed(() => screenshot(console_, 'servicing-admin-failed', 'screen'));
    await console_.goto('/management/borrowing');
    const loanRow = console_.getByRole('row', { name: /LN-/ });
    await textOf(loanRow, 'Active', 15_000);
    await loanRow.getByRole('button', { name: 'Repayments' }).click();
    const drawer = console_.getByRole('dialog', { name: /^Loan LN-/ });
    await drawer.getByText('No repayments yet').waitFor();

    const phone = await phoneContext(browser, system.baseUrl);
    contexts.push(phone);
    await phone.addInitScript(`window.localStorage.setItem('token', ${JSON.stringify(borrower.token)})`);
    const page: Page = await phone.newPage();
    const errors = collectPageErrors(page);
    onTestFailed(() => screenshot(page, 'servicing-phone-failed', 'screen'));
    await page.goto('/wallet');
    await page.getByRole('link', { name: 'View loan and pay' }).click();
    await page.getByRole('heading', { level: 1, name: /^Loan LN-/ }).waitFor();
    await textOf(page.getByTestId('loan-outstanding'), '₱400,000.00');
    await textOf(page.getByTestId('instalment-1'), 'Upcoming');
    await textOf(page.getByTestId('payoff-amount'), '₱250,000.00');
    expect(await horizontalOverflow(page)).toBe(0);
    await screenshot(page, 'servicing-01-loan-page');

    await page.getByRole('button', { name: 'Pay', exact: true }).click();
    const pay = page.getByRole('dialog', { name: 'Pay from wallet' });
    await pay.getByRole('radio', { name: /Next instalment/ }).check();
    await textOf(pay, '₱16,666.66');
    await screenshot(page, 'servicing-02-pay', 'screen');
    await pay.getByRole('button', { name: 'Review payment' }).click();
    const confirm = page.getByRole('dialog', { name: 'Confirm payment' });
    await textOf(confirm.getByTestId('allocation-1'), 'interest ₱6,250.00 · principal ₱10,416.66');
    expect(await horizontalOverflow(page)).toBe(0);
    await screenshot(page, 'servicing-03-confirm', 'screen');
    await confirm.getByRole('button', { name: 'Pay ₱16,666.66' }).click();
    const paid = page.getByRole('dialog', { name: 'Payment received' });
    const receiptText = await textOf(paid.getByTestId('payment-receipt'), '₱16,666.66 paid from your wallet');
    const receiptNumber = /Receipt (OR-\d{4}-\d{6}-001)/.exec((await paid.textContent()) ?? '')?.[1];
    expect(receiptNumber, receiptText).toBeDefined();
    await screenshot(page, 'servicing-04-receipt', 'screen');
    await paid.getByRole('button', { name: 'Done' }).click();
    await textOf(page.getByTestId('instalment-1'), 'Paid');
    await textOf(page.getByTestId('loan-outstanding'), '₱383,333.34');
    await textOf(page.getByTestId('receipt').first(), receiptNumber!);
    await screenshot(page, 'servicing-05-after');

    // The admin's drawer, opened before the payment, shows it now.
    await textOf(drawer, receiptNumber!, 10_000);
    await textOf(drawer, '₱383,333.34');
    await screenshot(console_, 'servicing-06-admin-drawer', 'screen');
    expect((await system.request('GET', '/api/user/profile', { token: borrower.token })).body.balance).toBe(250_000 - 16_666.66);
    expect(errors).toEqual([]);
  });

  it('shows a live collections page and the portfolio cards on the members page', async () => {
    const admin = await desktopContext(browser, system.baseUrl, { token: await system.adminToken() });
    contexts.push(admin);
    const page = await admin.newPage();
    await page.goto('/management/members');
    await textOf(page.getByTestId('portfolio'), 'PAR30', 15_000);
    await textOf(page.getByTestId('portfolio'), '₱239,583.34');
    await screenshot(page, 'servicing-07-portfolio', 'screen');
    await page.getByRole('menuitem', { name: 'Collections' }).click();
    await page.getByRole('heading', { level: 1, name: 'Collections' }).waitFor();
    await page.getByText('No overdue loans').waitFor();
    // Forty days past the second due date, unpaid: the loan shows up in the 31–60 bucket without a reload.
    const loan = (await system.request('GET', `/api/loans/${borrower.loanId}`, { token: borrower.token })).body;
    const due = new Date(`${loan.schedule[1].dueDate}T00:00:00Z`);
    const later = new Date(due.getTime() + 40 * 86_400_000).toISOString().slice(0, 10);
    const moved = await system.request('POST', '/api/dev/business-date', { token: await system.adminToken(), body: { date: later } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const row = page.getByRole('row', { name: new RegExp(loan.loanNumber) });
    await textOf(row, '31-60 days', 15_000);
    await textOf(row, borrower.phone.replace(/^0/, '+63'));
    await screenshot(page, 'servicing-08-collections', 'screen');
  });

  it('a borrower forty days late sees first, at 360 × 740, how much is overdue since when, and Pay; never that all is well', async () => {
    const phone = await phoneContext(browser, system.baseUrl);
    contexts.push(phone);
    await phone.addInitScript(`window.localStorage.setItem('token', ${JSON.stringify(borrower.token)})`);
    const page: Page = await phone.newPage();
    onTestFailed(() => screenshot(page, 'servicing-arrears-failed', 'screen'));
    await page.goto('/loan-app');
    const card = page.getByRole('region', { name: 'Active loan' });
    await textOf(card.getByTestId('loan-arrears'), 'overdue since', 15_000);
    expect(await card.textContent()).not.toContain('Your loan is active');
    const pay = card.getByRole('link', { name: /^Pay ₱/ });
    expect(await pay.getAttribute('class')).toContain('button--primary');
    expect(await horizontalOverflow(page)).toBe(0);
    await screenshot(page, 'servicing-09-arrears-dashboard', 'screen');
    await pay.click();
    // The Pay button lands on the loan with the payment dialog open; the top card names the arrears.
    await page.getByRole('dialog', { name: 'Pay from wallet' }).waitFor();
    await page.keyboard.press('Escape');
    await textOf(page.getByTestId('loan-overdue'), 'days past due');
    const nextDue = (await page.getByTestId('loan-next-due').textContent()) ?? '';
    const loan = (await system.request('GET', `/api/loans/${borrower.loanId}`, { token: borrower.token })).body as { schedule: { dueDate: string; daysPastDue: number; status: string }[] };
    const future = loan.schedule.find((row) => row.daysPastDue === 0 && row.status !== 'paid')!;
    expect(nextDue).toContain(new Intl.DateTimeFormat('en-PH', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'Asia/Manila' }).format(new Date(`${future.dueDate}T00:00:00+08:00`)));
    await screenshot(page, 'servicing-10-arrears-loan-page', 'screen');
  });

  it('a wallet payment whose answer is lost on the way back is taken once, and its one receipt is shown at 360 × 740', async () => {
    const phone = await phoneContext(browser, system.baseUrl);
    contexts.push(phone);
    await phone.addInitScript(`window.localStorage.setItem('token', ${JSON.stringify(borrower.token)})`);
    const page: Page = await phone.newPage();
    onTestFailed(() => screenshot(page, 'servicing-lost-answer-failed', 'screen'));
    const before = (await system.request('GET', '/api/user/profile', { token: borrower.token })).body.balance as number;
    // The first payment request reaches the server and is carried out; its answer never reaches the phone.
    let lost = 0;
    await page.route('**/api/loans/*/repayments', async (route) => {
      if (route.request().method() !== 'POST' || lost > 0) return route.continue();
      lost += 1;
      await route.fetch();
      return route.abort('internetdisconnected');
    });
    await page.goto(`/loans/${borrower.loanId}`);
    await page.getByRole('heading', { level: 1, name: /^Loan LN-/ }).waitFor();
    await page.getByRole('button', { name: 'Pay', exact: true }).click();
    const pay = page.getByRole('dialog', { name: 'Pay from wallet' });
    await pay.getByRole('radio', { name: /Next instalment/ }).check();
    await pay.getByRole('button', { name: 'Review payment' }).click();
    const payButton = page.getByRole('dialog', { name: 'Confirm payment' }).getByRole('button', { name: /^Pay ₱/ });
    const amount = Number(/₱([\d,.]+)/.exec((await payButton.textContent()) ?? '')![1].replace(/,/g, ''));
    await payButton.click();
    const paid = page.getByRole('dialog', { name: 'Payment received' });
    await textOf(paid.getByTestId('payment-receipt'), 'paid from your wallet');
    expect(lost).toBe(1);
    await screenshot(page, 'servicing-07-lost-answer-receipt', 'screen');
    await paid.getByRole('button', { name: 'Done' }).click();
    // One payment taken, not two: the wallet moved by one instalment and the loan shows one more receipt.
    expect((await system.request('GET', '/api/user/profile', { token: borrower.token })).body.balance).toBeCloseTo(before - amount, 2);
    await textOf(page.getByTestId('receipt').first(), '-002');
    expect(await page.getByTestId('receipt').count()).toBe(2);
  });
});
