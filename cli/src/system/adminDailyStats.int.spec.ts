import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminDailyStatsAnswerSchema } from '@honeylend/contracts';
import { startTestSystem, type TestSystem } from '../testing/testSystem.js';
import { approvedBySecondAdmin } from '../testing/approvals.js';
import { disburse, registerBorrower } from '../testing/borrowers.js';
import { borrowerWithPendingLoan, createAdmin, pendingWithdrawal, superadminToken, type TestAdmin, acceptDisclosure } from '../testing/admins.js';

let system: TestSystem;
let officer: TestAdmin;
beforeAll(async () => {
  system = await startTestSystem();
  officer = await createAdmin(system, await superadminToken(system));
});
afterAll(() => system?.stop());

/** Manila is UTC+8 all year: the calendar day of an instant there, worked out here independently of the product's code. */
const manilaDay = (instant: string | number) => new Date(new Date(instant).getTime() + 8 * 3_600_000).toISOString().slice(0, 10);

/** What each Manila day should show, from the events the log recorded (their createdAt decides the day). */
async function expectedDaysFromLog(): Promise<Map<string, { loanApplications: number; loanCentavos: number; withdrawals: number; withdrawalCentavos: number }>> {
  const days = new Map<string, { loanApplications: number; loanCentavos: number; withdrawals: number; withdrawalCentavos: number }>();
  for (const event of await system.store.readAll({ limit: 100_000 })) {
    if (event.type !== 'LoanApplied' && event.type !== 'WithdrawalRequested') continue;
    const day = days.get(manilaDay(event.createdAt)) ?? { loanApplications: 0, loanCentavos: 0, withdrawals: 0, withdrawalCentavos: 0 };
    const amount = (event.data as { amountCentavos: number }).amountCentavos;
    if (event.type === 'LoanApplied') {
      day.loanApplications++;
      day.loanCentavos += amount;
    } else {
      day.withdrawals++;
      day.withdrawalCentavos += amount;
    }
    days.set(manilaDay(event.createdAt), day);
  }
  return days;
}

describe('admin daily stats (GET /api/admin/stats/daily)', () => {
  it('answers the days and the loan amount by status from the projection counters', async () => {
    const { loan: approvedLoan, borrower } = await borrowerWithPendingLoan(system, 'Daily Approved', 80_000);
    await borrowerWithPendingLoan(system, 'Daily Pending', 120_000);
    const approval = await system.request('PUT', `/api/admin/loans/${approvedLoan.id}`, { token: officer.token, body: { status: 'approved' } });
    expect(approval.status).toBe(200);
    await acceptDisclosure(system, borrower.token, approvedLoan.id);
    const codes: string[] = [];
    await pendingWithdrawal(system, borrower, 1000, codes);
    await pendingWithdrawal(system, borrower, 2500.5, codes);
    // A member whose wallet was filled without a loan: money in, no application counted.
    const funded = await registerBorrower(system, 'Daily Funded');
    await disburse(system, funded, 500_000);
    await pendingWithdrawal(system, funded, 1300, []);

    const before = Date.now();
    const res = await system.request('GET', '/api/admin/stats/daily', { token: officer.token });
    const after = Date.now();
    expect(res.status).toBe(200);
    expect(adminDailyStatsAnswerSchema.parse(res.body)).toEqual(res.body);

    // Fourteen days by default, consecutive, oldest first, ending today in Manila.
    expect(res.body.days).toHaveLength(14);
    const dates: string[] = res.body.days.map((d: { date: string }) => d.date);
    expect([manilaDay(before), manilaDay(after)]).toContain(dates[13]);
    for (let i = 1; i < dates.length; i++) expect(Date.parse(dates[i]) - Date.parse(dates[i - 1])).toBe(86_400_000);

    const expected = await expectedDaysFromLog();
    for (const day of res.body.days) {
      const want = expected.get(day.date);
      expect(day, day.date).toEqual({
        date: day.date,
        loanApplications: want?.loanApplications ?? 0,
        loanAmount: (want?.loanCentavos ?? 0) / 100,
        withdrawals: want?.withdrawals ?? 0,
        withdrawalAmount: (want?.withdrawalCentavos ?? 0) / 100,
      });
    }
    const totals = res.body.days.reduce((sum: number[], d: any) => [sum[0] + d.loanApplications, sum[1] + d.loanAmount, sum[2] + d.withdrawals, sum[3] + d.withdrawalAmount], [0, 0, 0, 0]);
    expect(totals).toEqual([2, 200_000, 3, 4800.5]);

    const byStatus = Object.fromEntries(res.body.loanAmountByStatus.map((s: any) => [s.status, { count: s.count, amount: s.amount }]));
    expect(byStatus).toEqual({
      pending: { count: 1, amount: 120_000 },
      approved: { count: 0, amount: 0 },
      denied: { count: 0, amount: 0 },
      account_issue: { count: 0, amount: 0 },
      // Accepted, the approval disbursed it: its account is open.
      active: { count: 1, amount: 80_000 },
      completed: { count: 0, amount: 0 },
      lapsed: { count: 0, amount: 0 },
      cancelled: { count: 0, amount: 0 },
    });

    // The active loan is paid off; its amount follows it to completed.
    const quote = await system.request('GET', `/api/loans/${approvedLoan.id}/payoff-quote`, { token: borrower.token });
    // Four eyes: the officer's top-up runs once the main admin approves it.
    const adjusted = await approvedBySecondAdmin(
      system,
      await system.request('POST', `/api/admin/users/${borrower.id}/balance-adjustments`, { token: officer.token, body: { amount: 10_000, reason: 'Top up to pay off' } }),
      await superadminToken(system),
    );
    expect(adjusted.status).toBe(200);
    expect((await system.request('POST', `/api/loans/${approvedLoan.id}/repayments`, { token: borrower.token, body: { amount: quote.body.amount } })).status).toBe(201);
    const moved = await system.request('GET', '/api/admin/stats/daily?days=1', { token: officer.token });
    expect(moved.body.days).toHaveLength(1);
    expect(moved.body.loanAmountByStatus.find((s: any) => s.status === 'completed')).toEqual({ status: 'completed', count: 1, amount: 80_000 });
    expect(moved.body.loanAmountByStatus.find((s: any) => s.status === 'active')).toEqual({ status: 'active', count: 0, amount: 0 });
    expect((await system.request('GET', '/api/admin/stats/daily?days=90', { token: officer.token })).body.days).toHaveLength(90);
  });

  it('is for staff only: 401 without a token, 403 for a borrower', async () => {
    const borrower = await registerBorrower(system, 'Daily Outsider');
    const anonymous = await system.request('GET', '/api/admin/stats/daily');
    expect(anonymous.status).toBe(401);
    const refused = await system.request('GET', '/api/admin/stats/daily', { token: borrower.token });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ message: expect.any(String), code: expect.any(String) });
    expect(refused.body.days).toBeUndefined();
  });

  it('refuses a days outside 1–90 or not a whole number with a 400 JSON error', async () => {
    for (const days of ['0', '91', 'abc', '1.5', '-3', '', '14&days=7', '1000000']) {
      const res = await system.request('GET', `/api/admin/stats/daily?days=${days}`, { token: officer.token });
      expect(res.status, days).toBe(400);
      expect(res.body, days).toEqual({ message: 'Days must be a whole number from 1 to 90', code: 'VALIDATION_FAILED', details: { fields: { days: 'Days must be a whole number from 1 to 90' } } });
    }
  });
});
