import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LATE_CHARGE_SETTINGS, DEFAULT_MONTHLY_RATE_BPS, businessDateOf } from '@honeylend/contracts';
import { openEventStore } from '@honeylend/eventstore';
import { startTestSystem, SUPERADMIN, type TestSystem } from '../testing/testSystem.js';
import { runLending } from '../testing/lendingCli.js';
import { seedDemo, type SeedSummary } from './seedDemo.js';

/*
 * Issue 17 item 6: `lending seed` writes a living demo — 200 members over 120 days, loans in every
 * status, repayments on time, late and paid off, withdrawals pending, completed and rejected, a
 * second admin and an auditor — through the deciders, so the running system serves it like any other.
 */
let system: TestSystem;
let summary: SeedSummary;
const work = mkdtempSync(join(tmpdir(), 'honeylend-seed-'));

beforeAll(async () => {
  const store = await openEventStore('pglite:memory');
  summary = await seedDemo({
    store,
    saveFile: async () => undefined,
    now: new Date(),
    members: 200,
    days: 120,
    seed: 20261125,
    monthlyRateBps: DEFAULT_MONTHLY_RATE_BPS,
    lateCharge: DEFAULT_LATE_CHARGE_SETTINGS,
  });
  // The system starts on the seeded store: its projections build the read models from the log.
  system = await startTestSystem({ store });
  await system.api.deps.progress.waitFor(await store.headPosition());
}, 600_000);
afterAll(async () => {
  await system?.stop();
  rmSync(work, { recursive: true, force: true });
});

const admin = async () => (await system.request('POST', '/api/auth/admin-login', { body: SUPERADMIN })).body.token as string;

describe('lending seed', () => {
  it('writes 200 members over the last 120 days, most verified, with loans in every status', async () => {
    expect(summary.members).toBe(200);
    expect(summary.verified).toBeGreaterThan(150);
    expect(summary.verified).toBeLessThan(200);
    const token = await admin();
    const pages = [await system.request('GET', '/api/admin/users?pageSize=100&page=1', { token }), await system.request('GET', '/api/admin/users?pageSize=100&page=2', { token })];
    expect(pages[0].body.total).toBe(200);
    const joined = pages.flatMap((page) => page.body.items.map((member: { createdAt: string }) => Date.parse(member.createdAt)));
    expect(joined).toHaveLength(200);
    expect(Math.min(...joined)).toBeGreaterThanOrEqual(Date.now() - 121 * 86_400_000);
    expect(Math.max(...joined) - Math.min(...joined)).toBeGreaterThan(60 * 86_400_000);
    for (const status of ['pending', 'account_issue', 'denied', 'approved', 'lapsed', 'active', 'completed']) {
      const loans = await system.request('GET', `/api/admin/loans?status=${status}&pageSize=100`, { token });
      expect(loans.body.total, status).toBe(summary.loansByStatus[status]);
      expect(loans.body.total, status).toBeGreaterThan(0);
    }
    const awaiting = await system.request('GET', '/api/admin/loans?status=approved&pageSize=100', { token });
    expect(awaiting.body.items.every((loan: { acceptance: { awaiting: boolean } }) => loan.acceptance.awaiting)).toBe(true);
  });

  it('has repayments on time, late (overdue loans in collections) and paid off, and withdrawals in every state', async () => {
    const token = await admin();
    expect(summary.repayments).toBeGreaterThan(50);
    const collections = await system.request('GET', '/api/admin/collections?pageSize=100', { token });
    expect(collections.body.total).toBeGreaterThan(0);
    // Every overdue loan was reminded as it fell behind: its last contact is dated on a business day gone by.
    const today = businessDateOf(new Date().toISOString());
    for (const row of collections.body.items as { loanNumber: string; lastContact: { at: string } | null }[]) {
      expect(row.lastContact, row.loanNumber).not.toBeNull();
      expect(businessDateOf(row.lastContact!.at) <= today, row.loanNumber).toBe(true);
    }
    const portfolio = await system.request('GET', '/api/admin/portfolio', { token });
    expect(portfolio.status).toBe(200);
    // Four eyes: the officer's goodwill credit waits for a second admin, and has moved no money.
    const waiting = await system.request('GET', '/api/admin/approvals?status=pending', { token });
    expect(summary.approvalsWaiting).toBe(1);
    expect(waiting.body.total).toBe(1);
    expect(waiting.body.items[0]).toMatchObject({ kind: 'balance_adjustment', amount: 500, maker: { name: expect.stringContaining('Rosario') }, status: 'pending' });
    expect(JSON.stringify((await system.store.readStream(`member-${waiting.body.items[0].memberId}`)).map((event) => event.type))).not.toContain('BalanceAdjusted');
    for (const status of ['pending', 'completed', 'rejected']) {
      const withdrawals = await system.request('GET', `/api/admin/withdrawals?status=${status}&pageSize=100`, { token });
      expect(withdrawals.body.total, status).toBe(summary.withdrawalsByStatus[status]);
      expect(withdrawals.body.total, status).toBeGreaterThan(0);
    }
  });

  it('prints sign-in details that work: borrowers of each story, a second admin and an auditor', async () => {
    expect(summary.borrowers.map((borrower) => borrower.story)).toEqual(expect.arrayContaining(['pending', 'on_time', 'late', 'paid_off', 'awaiting_acceptance']));
    for (const borrower of summary.borrowers) {
      const signedIn = await system.request('POST', '/api/auth/login', { body: { phone: borrower.phone, password: summary.borrowerPassword } });
      expect(signedIn.status, borrower.story).toBe(200);
    }
    const late = summary.borrowers.find((borrower) => borrower.story === 'late')!;
    const lateToken = (await system.request('POST', '/api/auth/login', { body: { phone: late.phone, password: summary.borrowerPassword } })).body.token;
    const [lateLoan] = (await system.request('GET', '/api/loans/user', { token: lateToken })).body;
    expect(lateLoan).toMatchObject({ status: 'active' });
    expect(lateLoan.daysPastDue).toBeGreaterThan(0);
    for (const account of summary.staff) {
      const signedIn = await system.request('POST', '/api/auth/admin-login', { body: { username: account.username, password: account.password } });
      expect(signedIn.status, account.username).toBe(200);
      expect(signedIn.body.admin?.role ?? signedIn.body.user?.role ?? signedIn.body.role).toBe(account.role);
    }
  });

  it('refuses a store that already holds events unless --force, and prints the sign-in details', async () => {
    const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), NODE_ENV: 'development', DATA_DIR: work, LOG_LEVEL: 'warn' };
    const first = await runLending(['seed', '--members', '4', '--days', '30', '--seed', '7'], env, 180_000);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/seeded 4 members/);
    expect(first.stdout).toMatch(/officer \/ Demo-\d{4}-/);
    // The borrowers' password is made for the run and printed once: no two runs share one.
    const borrowerPassword = (stdout: string) => /with the password (Demo-\d{4}-[0-9a-f]{8}) \(made for this run\):/.exec(stdout)?.[1];
    expect(borrowerPassword(first.stdout)).toBeDefined();
    const again = await runLending(['seed', '--members', '4', '--days', '30'], env, 180_000);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^lending: the event store at EVENTSTORE_URL already holds \d+ events beyond the main admin's account; seed only an empty store, or add --force/);
    const forced = await runLending(['seed', '--force', '--members', '3', '--days', '30'], env, 180_000);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toMatch(/seeded 3 members/);
    expect(forced.stdout).toContain('made by an earlier seed');
    expect(borrowerPassword(forced.stdout)).toBeDefined();
    expect(borrowerPassword(forced.stdout)).not.toBe(borrowerPassword(first.stdout));
  }, 400_000);
});
