import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { collectPageErrors, horizontalOverflow, launchChromium, phoneContext, screenshot } from './support/browser.js';
import { pendingLoan, verifiedBorrower, type ApiBorrower } from './support/borrowers.js';
import { textOf } from './support/helpers.js';
import { startSystem, type RunningSystem } from './support/system.js';

/*
 * Issue 37 item 5, on a phone (360 × 740): a loan applied for and approved 84 days later. The
 * Disclosure Statement and the loan page both count the schedule from the day of acceptance (the
 * disbursement), and once accepted nothing is past due and the payoff is the principal alone.
 */
const DAY_MS = 86_400_000;

/** The same day `months` later, or that month's last day: worked out with Date, not with the product's calendar code. */
function monthsLater(date: string, months: number): string {
  const [year, month, day] = date.split('-').map(Number);
  const lastDay = new Date(Date.UTC(year, month - 1 + months + 1, 0)).getUTCDate();
  return new Date(Date.UTC(year, month - 1 + months, Math.min(day, lastDay))).toISOString().slice(0, 10);
}

/** As the web app writes a date ("Jan 25, 2027"). */
const shown = (date: string) => new Intl.DateTimeFormat('en-PH', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'Asia/Manila' }).format(new Date(`${date}T00:00:00+08:00`));

describe('a loan approved months after it was applied for, on a phone', () => {
  let system: RunningSystem;
  let browser: Browser;
  let context: BrowserContext;
  let borrower: ApiBorrower;
  let loan: { id: string; loanNumber: string };
  let approvedOn: string;

  beforeAll(async () => {
    system = await startSystem();
    browser = await launchChromium();
    const admin = await system.adminToken();
    borrower = await verifiedBorrower(system, 'Rodel Villanueva');
    loan = await pendingLoan(system, borrower, 120_000);
    const { date } = (await system.request('GET', '/api/dev/business-date', { token: admin })).body as { date: string };
    approvedOn = new Date(Date.parse(`${date}T00:00:00Z`) + 84 * DAY_MS).toISOString().slice(0, 10);
    const moved = await system.request('POST', '/api/dev/business-date', { token: admin, body: { date: approvedOn } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const approval = await system.request('PUT', `/api/admin/loans/${loan.id}`, { token: admin, body: { status: 'approved' } });
    expect(approval.status, JSON.stringify(approval.body)).toBe(200);
    context = await phoneContext(browser, system.baseUrl);
    await context.addInitScript(`window.localStorage.setItem('token', ${JSON.stringify(borrower.token)})`);
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await system?.stop();
  });

  it('shows the schedule from the day of acceptance in the statement and on the loan page, and after acceptance nothing is past due', async () => {
    const page: Page = await context.newPage();
    const errors = collectPageErrors(page);
    onTestFailed(() => screenshot(page, 'schedule-start-failed', 'screen'));
    const firstDue = monthsLater(approvedOn, 2);
    const lastDue = monthsLater(approvedOn, 13);

    await page.goto('/wallet');
    await page.getByRole('link', { name: 'Review and accept the Disclosure Statement' }).click();
    const statement = page.getByTestId('disclosure-statement');
    await textOf(statement, `Accepted today (${approvedOn}), instalment 1 is due ${firstDue}`);
    await textOf(statement, `12   ${lastDue}`);
    // The app's own schedule beside it says the same.
    await textOf(page.getByTestId('instalment-1'), shown(firstDue));
    await textOf(page.getByTestId('instalment-1'), 'Upcoming');
    expect(await horizontalOverflow(page)).toBe(0);
    await screenshot(page, 'schedule-start-01-disclosure');

    await page.getByRole('checkbox', { name: 'I have read and understood this Disclosure Statement' }).check();
    await page.getByRole('button', { name: 'Accept', exact: true }).click();
    await textOf(page.locator('.page__header'), 'Active');
    await textOf(page.getByTestId('instalment-1'), shown(firstDue));
    await textOf(page.getByTestId('instalment-1'), 'Upcoming');
    await textOf(page.getByTestId('loan-next-due'), shown(firstDue));
    // Paid off today it costs the principal: no interest for the months before the money was lent.
    await textOf(page.getByTestId('payoff-amount'), '₱120,000.00');
    expect(await horizontalOverflow(page)).toBe(0);
    await screenshot(page, 'schedule-start-02-loan-page');

    const answer = await system.request('GET', `/api/loans/${loan.id}`, { token: borrower.token });
    expect(answer.body).toMatchObject({ status: 'active', daysPastDue: 0, delinquencyBucket: 'current', disbursement: { on: approvedOn, done: true } });
    expect(answer.body.schedule[0].dueDate).toBe(firstDue);
    expect(errors).toEqual([]);
  });
});
