import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { approvedBySecondAdmin, plainAdmin } from './support/admins.js';
import { approvedBorrower, type ApiBorrower } from './support/borrowers.js';
import { collectPageErrors, launchChromium, screenshot } from './support/browser.js';
import { desktopContext } from './support/desktop.js';
import { eventually, textOf } from './support/helpers.js';
import { startSystem, type RunningSystem } from './support/system.js';

/**
 * Issue 16's browser test at 1440 × 900: an auditor signs in, filters the log by a member's
 * stream, slides back three revisions and sees the earlier state, exports NDJSON (the file's lines
 * are the events shown), runs Verify and sees the badge.
 */
describe('the auditor workspace at 1440 × 900 (issue 16)', () => {
  let system: RunningSystem;
  let browser: Browser;
  let context: BrowserContext;
  let member: ApiBorrower & { loanId: string };
  const auditor = { email: `auditor-${randomUUID().slice(0, 8)}@honeylend.test`, password: 'Ledger-Check#2026' };

  beforeAll(async () => {
    system = await startSystem();
    browser = await launchChromium();
    member = await approvedBorrower(system);
    const main = await system.adminToken();
    // Four eyes: the main admin's adjustments run once a second admin approves them.
    const checker = await plainAdmin(system, 'Checking Officer');
    // The member's last three events: a credit, a new credit score, a debit.
    for (const [path, body] of [
      [`/api/admin/users/${member.id}/balance-adjustments`, { amount: 1_000, reason: 'Goodwill credit for the delay' }],
      [`/api/admin/users/${member.id}`, { creditScore: 720 }],
      [`/api/admin/users/${member.id}/balance-adjustments`, { amount: -250, reason: 'Reversal of a duplicate credit' }],
    ] as const) {
      const res = await approvedBySecondAdmin(system, await system.request(path.endsWith('adjustments') ? 'POST' : 'PUT', path, { token: main, body }), checker.token);
      expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    }
    const created = await system.request('POST', '/api/admin/create-admin', { token: main, body: { ...auditor, fullName: 'Ana Auditor', role: 'auditor' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
  });

  afterAll(async () => {
    await context?.close().catch(() => undefined);
    await browser?.close();
    await system?.stop();
  });

  it('filters a member’s stream, slides back three revisions, exports NDJSON and verifies the chain', async () => {
    context = await desktopContext(browser, system.baseUrl);
    const page: Page = await context.newPage();
    const errors = collectPageErrors(page);
    onTestFailed(() => screenshot(page, 'auditor-failed', 'screen'));

    await page.goto('/admin-login');
    await page.getByLabel('Username').fill(auditor.email);
    await page.getByLabel('Password').fill(auditor.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/audit');
    await page.getByRole('heading', { name: 'Event log' }).waitFor();

    // The log, filtered by the member's stream: the events the page received are the stream's, in order.
    const stream = `member-${member.id}`;
    await page.getByRole('textbox', { name: 'Stream' }).fill(stream);
    const [filtered] = await Promise.all([
      page.waitForResponse((response) => response.url().includes('/api/audit/events') && response.url().includes(encodeURIComponent(stream))),
      page.getByRole('button', { name: 'Apply filters' }).click(),
    ]);
    const shown = ((await filtered.json()) as { events: Array<{ position: number; stream: string; revision: number; type: string; hash: string }> }).events;
    const main = await system.adminToken();
    const history = (await system.request('GET', `/api/audit/streams/${stream}`, { token: main })).body;
    expect(shown.map((event) => event.revision)).toEqual(history.events.map((event: { revision: number }) => event.revision));
    expect(shown.every((event) => event.stream === stream)).toBe(true);
    await textOf(page.locator('.audit-log__table .ant-table-row').first(), String(shown[0].position));
    await textOf(page.locator('.audit-log__footer'), `${shown.length} events shown`);
    // Masked: the member's name is an initial.
    expect(await page.locator('.audit-log__table').textContent()).not.toContain('Gabriela Silang');

    // Export NDJSON of exactly this filter: one line per event shown, equal to it.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export NDJSON' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^honeylend-log-\d{4}-\d{2}-\d{2}-\d+-\d+\.ndjson$/);
    const lines = readFileSync(await download.path(), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as unknown);
    expect(lines).toEqual(shown);
    expect(lines.every((line) => /^[0-9a-f]{64}$/.test((line as { hash: string }).hash))).toBe(true);

    // The stream from its first event; the slider to its newest revision, then three revisions back.
    const last = shown.at(-1)!;
    await page.getByRole('link', { name: new RegExp(`^${stream} #0$`) }).click();
    await page.waitForURL(`**/audit/streams/${encodeURIComponent(stream)}?asOf=0`);
    const slider = page.getByRole('slider', { name: 'Revision' });
    await slider.focus();
    await page.keyboard.press('End');
    await page.waitForURL(`**?asOf=${last.revision}`);
    const stateRow = (field: string) =>
      page
        .getByRole('table')
        .last()
        .getByRole('row', { name: new RegExp(`^${field} `) });
    await textOf(stateRow('creditScore'), '720');
    const latestBalance = history.state.balanceCentavos as number;
    await textOf(stateRow('balanceCentavos'), String(latestBalance));
    for (let step = 0; step < 3; step++) await page.keyboard.press('ArrowLeft');
    await page.waitForURL(`**?asOf=${last.revision - 3}`);
    await textOf(page.getByText(/As of revision \d+ of \d+/), `As of revision ${last.revision - 3} of ${last.revision}`);
    await textOf(stateRow('creditScore'), '500');
    const earlier = (await system.request('GET', `/api/audit/streams/${stream}?asOf=${last.revision - 3}`, { token: main })).body;
    await textOf(stateRow('balanceCentavos'), String(earlier.state.balanceCentavos));
    expect(earlier.state.balanceCentavos).toBe(latestBalance - 100_000 + 25_000);
    // The event that made this state is shown beside it, highlighted.
    const made = page.getByRole('article', { name: `Revision ${last.revision - 3}` });
    await textOf(made, `#${last.revision - 3}`);
    expect(await made.getAttribute('class')).toContain('audit-stream__event--current');

    // Verify: the badge says how far the chain holds.
    await page.getByRole('button', { name: 'Verify' }).click();
    const badge = page.getByRole('status', { name: 'Chain' });
    const verified = await textOf(badge, /Chain verified to position [\d,]+ at/, 30_000);
    const position = Number(/position ([\d,]+)/.exec(verified)![1].replace(/,/g, ''));
    expect(position).toBeGreaterThanOrEqual(shown.at(-1)!.position);
    await screenshot(page, 'auditor-stream', 'screen');
    await eventually('no page errors', async () => (errors.length === 0 ? true : undefined), 1_000).catch(() => undefined);
    expect(errors).toEqual([]);
  }, 120_000);
});
