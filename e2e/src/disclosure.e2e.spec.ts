import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectPageErrors, horizontalOverflow, launchChromium, phoneContext, screenshot } from './support/browser.js';
import { textOf } from './support/helpers.js';
import { pendingLoan, verifiedBorrower, type ApiBorrower } from './support/borrowers.js';
import { startSystem, type RunningSystem } from './support/system.js';

/*
 * Issue 17, items 2 and 3, on a phone (360 × 740): with the lender's details set, every borrower
 * page names it in a footer and the dashboard shows the badges, 'Check with SEC' and the COMPANY
 * DETAILS dialog (SEC MC 19 s.2019); a borrower reads the approved loan's Disclosure Statement,
 * downloads it as a PDF and accepts it, and only then the money reaches the wallet (RA 3765).
 */
const COMPANY = {
  companyName: 'Pulot Lending Corporation',
  secRegistrationNumber: 'CS202012345',
  certificateOfAuthorityNumber: '3456',
  dateRegistered: '2020-03-02',
  status: 'Registered',
  address: '8F Net Park, 5th Avenue, Bonifacio Global City, Taguig',
  contact: 'help@pulot.ph',
};

describe('the lender named and the Disclosure Statement accepted, on a phone', () => {
  let system: RunningSystem;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let pageErrors: string[];
  let borrower: ApiBorrower;
  let loan: { id: string; loanNumber: string };

  beforeAll(async () => {
    system = await startSystem();
    browser = await launchChromium();
    const admin = await system.adminToken();
    const set = await system.request('PUT', '/api/admin/settings/company', { token: admin, body: COMPANY });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    borrower = await verifiedBorrower(system, 'Imelda Bautista');
    loan = await pendingLoan(system, borrower, 120_000);
    const approval = await system.request('PUT', `/api/admin/loans/${loan.id}`, { token: admin, body: { status: 'approved', notify: true } });
    expect(approval.status, JSON.stringify(approval.body)).toBe(200);
    context = await phoneContext(browser, system.baseUrl);
    page = await context.newPage();
    pageErrors = collectPageErrors(page);
    await page.goto('/');
    await page.evaluate(`window.localStorage.setItem('token', ${JSON.stringify(borrower.token)})`);
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await system?.stop();
  });

  it('shows the footer on every borrower page, and the badges, Check with SEC and COMPANY DETAILS on the dashboard', async () => {
    for (const path of ['/', '/loan-app', '/wallet', '/profile']) {
      await page.goto(path);
      const footer = page.getByRole('contentinfo', { name: 'Lender' });
      await textOf(footer, 'Pulot Lending Corporation');
      await textOf(footer, 'SEC Registration No. CS202012345');
      await textOf(footer, 'Certificate of Authority No. 3456');
      await textOf(footer, 'Read the Disclosure Statement before you proceed');
      expect(await horizontalOverflow(page), path).toBe(0);
    }
    await page.goto('/loan-app');
    const operator = page.getByRole('region', { name: 'Licensed and regulated' });
    await textOf(operator, 'SEC Registered · CS202012345');
    expect(await operator.getByRole('link', { name: 'Check with SEC' }).getAttribute('href')).toBe('https://www.sec.gov.ph/');
    await operator.getByRole('button', { name: 'Company details' }).click();
    const details = page.getByRole('dialog', { name: 'COMPANY DETAILS' });
    for (const value of Object.values(COMPANY)) await textOf(details, value);
    expect(await horizontalOverflow(page)).toBe(0);
    await screenshot(page, 'company-details-dialog', 'screen');
    await details.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('contentinfo', { name: 'Lender' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'company-footer', 'screen');
  });

  it('has the borrower read the Disclosure Statement, download its PDF and accept it; only then the money moves', async () => {
    await page.goto('/wallet');
    await page.getByRole('button', { name: 'Show balance' }).click();
    await textOf(page.getByTestId('wallet-balance'), '₱0.00');
    await page.getByRole('link', { name: 'Review and accept the Disclosure Statement' }).click();
    const statement = page.getByTestId('disclosure-statement');
    await textOf(statement, 'DISCLOSURE STATEMENT ON LOAN TRANSACTION');
    await textOf(statement, 'Amount financed (paid into your Honeylend wallet): PHP 120,000.00');
    await textOf(statement, 'Lender: Pulot Lending Corporation');
    const hash = (await page.getByTestId('disclosure-hash').textContent())!;
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(await horizontalOverflow(page)).toBe(0);
    await screenshot(page, 'disclosure-statement');

    // The PDF to keep: its text (pdftotext) holds the figures and the same fingerprint.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download PDF' }).click()]);
    expect(download.suggestedFilename()).toBe(`disclosure-statement-${loan.loanNumber}.pdf`);
    const file = join(mkdtempSync(join(tmpdir(), 'honeylend-e2e-pdf-')), 'statement.pdf');
    await download.saveAs(file);
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
    for (const figure of ['PHP 120,000.00', 'CS202012345', loan.loanNumber, hash]) expect(text).toContain(figure);

    // Accepting needs the box ticked; then the loan is disbursed and active.
    const accept = page.getByRole('button', { name: 'Accept', exact: true });
    expect(await accept.isDisabled()).toBe(true);
    await page.getByRole('checkbox', { name: 'I have read and understood this Disclosure Statement' }).check();
    await accept.click();
    await textOf(page.locator('.page__header'), 'Active');
    await page.getByTestId('disclosure-statement').waitFor({ state: 'detached' });
    const recorded = await system.request('GET', `/api/loans/${loan.id}`, { token: borrower.token });
    expect(recorded.body).toMatchObject({ status: 'active', acceptance: { awaiting: false } });
    await page.goto('/wallet');
    await page.getByRole('button', { name: 'Show balance' }).click();
    await textOf(page.getByTestId('wallet-balance'), '₱120,000.00');
    expect(pageErrors).toEqual([]);
  });
});
