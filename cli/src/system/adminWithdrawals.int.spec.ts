import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streams } from '@honeylend/contracts';
import { startTestSystem, type TestSystem } from '../testing/testSystem.js';
import { disburse, registerBorrower, type Borrower } from '../testing/borrowers.js';
import { createAdmin, pendingWithdrawal, superadminToken, type TestAdmin } from '../testing/admins.js';

let system: TestSystem;
let officer: TestAdmin;
let otherOfficer: TestAdmin;
beforeAll(async () => {
  system = await startTestSystem();
  const main = await superadminToken(system);
  officer = await createAdmin(system, main);
  otherOfficer = await createAdmin(system, main);
});
afterAll(() => system?.stop());

const decide = (id: string, body: unknown, token = officer.token) => system.request('PUT', `/api/admin/withdrawals/${id}`, { token, body });

async function fundedBorrower(fullName: string, pesos = 50_000): Promise<Borrower & { codes: string[] }> {
  const borrower = await registerBorrower(system, fullName);
  await disburse(system, borrower, pesos * 100);
  return { ...borrower, codes: [] };
}

describe('admin withdrawals: list and stats', () => {
  it('lists withdrawals with their member and full account number, filtered by status and found by search', async () => {
    const tag = `Bituin${Date.now() % 100000}`;
    const borrower = await fundedBorrower(`${tag} Garcia`);
    const withdrawal = await pendingWithdrawal(system, borrower, 2500, borrower.codes);
    const res = await system.request('GET', `/api/admin/withdrawals?search=${tag}`, { token: officer.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 1, page: 1, pageSize: 20 });
    expect(res.body.items[0]).toMatchObject({
      id: withdrawal.id,
      withdrawalNumber: withdrawal.withdrawalNumber,
      amount: 2500,
      bankName: 'BPI',
      bankAccountNumber: '1234567890',
      status: 'pending',
      memberId: borrower.id,
      member: { fullName: `${tag} Garcia`, phone: borrower.phone },
    });
    for (const search of [withdrawal.withdrawalNumber, borrower.phone, `0${borrower.phone.slice(3)}`]) {
      const found = await system.request('GET', `/api/admin/withdrawals?search=${encodeURIComponent(search)}`, { token: officer.token });
      expect(
        found.body.items.map((w: any) => w.id),
        search,
      ).toEqual([withdrawal.id]);
    }
    expect((await system.request('GET', `/api/admin/withdrawals?search=${tag}&status=completed`, { token: officer.token })).body.total).toBe(0);
    expect((await system.request('GET', `/api/admin/withdrawals?search=${tag}&status=pending`, { token: officer.token })).body.total).toBe(1);
    const bad = await system.request('GET', '/api/admin/withdrawals?status=approved', { token: officer.token });
    expect(bad.status).toBe(400);
    expect(bad.body.details.fields.status).toBe('Status must be all, pending, completed or rejected');
    const one = await system.request('GET', `/api/admin/withdrawals/${withdrawal.id}`, { token: officer.token });
    expect(one.body.id).toBe(withdrawal.id);
  });

  it('keeps the stat cards by counting events: total, processed, pending, rejected, the amount not refused and the amount refused', async () => {
    const before = (await system.request('GET', '/api/admin/stats', { token: officer.token })).body;
    const borrower = await fundedBorrower('Stats Borrower');
    const first = await pendingWithdrawal(system, borrower, 1000, borrower.codes);
    const second = await pendingWithdrawal(system, borrower, 2000, borrower.codes);
    await pendingWithdrawal(system, borrower, 3000.5, borrower.codes);
    await decide(first.id, { status: 'completed' });
    await decide(second.id, { status: 'rejected' });
    const res = await system.request('GET', '/api/admin/stats', { token: officer.token });
    expect(res.status).toBe(200);
    expect(res.body.withdrawals).toEqual({
      total: before.withdrawals.total + 3,
      processed: before.withdrawals.processed + 1,
      pending: before.withdrawals.pending + 1,
      rejected: before.withdrawals.rejected + 1,
      // Issue 22 item 10: the rejected 2,000 is not money requested-and-not-refused; it is shown apart.
      totalAmount: before.withdrawals.totalAmount + 1000 + 3000.5,
      rejectedAmount: before.withdrawals.rejectedAmount + 2000,
    });
    expect(res.body.members.total).toBe(before.members.total + 1);
    expect(res.body.members.active).toBe(before.members.active + 1);
    // 50,000 disbursed, 1,000 paid out, 3,000.50 still held; the rejected 2,000 came back.
    expect(res.body.members.totalBalance).toBe(before.members.totalBalance + 50_000 - 1000 - 3000.5);
    expect(res.body.loans).toMatchObject({ total: expect.any(Number), byStatus: expect.any(Object), totalAmount: expect.any(Number) });
  });
});

describe('admin withdrawals: decisions', () => {
  it('completes a withdrawal, stamping processedAt, and tells the member', async () => {
    const borrower = await fundedBorrower('Paid Out');
    const withdrawal = await pendingWithdrawal(system, borrower, 5000, borrower.codes);
    // The moment the bank transfer went out, as the admin records it.
    const at = new Date(Date.parse(withdrawal.createdAt) + 1).toISOString();
    const res = await decide(withdrawal.id, { status: 'completed', processedAt: at });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'completed', processedAt: at });
    const profile = await system.request('GET', '/api/user/profile', { token: borrower.token });
    expect(profile.body.balance).toBe(45000);
    const mine = await system.request('GET', '/api/withdrawals', { token: borrower.token });
    expect(mine.body[0]).toMatchObject({ status: 'completed', processedAt: at });
    const notifications = await system.request('GET', '/api/notifications', { token: borrower.token });
    expect(notifications.body[0]).toMatchObject({ type: 'withdrawal_update', title: 'Withdrawal sent' });
    expect(notifications.body[0].message).toContain('••••7890');
  });

  it("records the payout reference on completion: in the event, the answers and the member's notice (issue 22, item 17)", async () => {
    const borrower = await fundedBorrower('Reference Kept');
    const withdrawal = await pendingWithdrawal(system, borrower, 3000, borrower.codes);
    const res = await decide(withdrawal.id, { status: 'completed', payoutReference: 'INSTAPAY 20261125-0042' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ status: 'completed', payoutReference: 'INSTAPAY 20261125-0042' });
    const mine = await system.request('GET', '/api/withdrawals', { token: borrower.token });
    expect(mine.body[0]).toMatchObject({ id: withdrawal.id, payoutReference: 'INSTAPAY 20261125-0042' });
    const notifications = await system.request('GET', '/api/notifications', { token: borrower.token });
    expect(notifications.body[0].message).toContain('Reference: INSTAPAY 20261125-0042.');
    const stream = await system.request('GET', `/api/admin/audit/member-${borrower.id}`, { token: officer.token });
    expect(stream.status, JSON.stringify(stream.body)).toBe(200);
    const events = (Array.isArray(stream.body) ? stream.body : stream.body.events) as { type: string; data: Record<string, unknown> }[];
    expect(events.find((event) => event.type === 'WithdrawalCompleted')?.data).toMatchObject({ withdrawalId: withdrawal.id, payoutReference: 'INSTAPAY 20261125-0042' });

    const bad = await decide((await pendingWithdrawal(system, borrower, 1000, borrower.codes)).id, { status: 'completed', payoutReference: '=HYPERLINK("x")' });
    expect(bad.status).toBe(400);
  });

  it('writes a rejection reason that ends with a full stop without a double period (issue 22, item 19)', async () => {
    const borrower = await fundedBorrower('One Stop');
    const withdrawal = await pendingWithdrawal(system, borrower, 2000, borrower.codes);
    expect((await decide(withdrawal.id, { status: 'rejected', reason: 'Please check your bank details.' })).status).toBe(200);
    const notifications = await system.request('GET', '/api/notifications', { token: borrower.token });
    expect(notifications.body[0].message).toContain('rejected: Please check your bank details. The amount is back in your wallet.');
  });

  it('rejects a withdrawal and refunds the held amount', async () => {
    const borrower = await fundedBorrower('Refunded');
    const withdrawal = await pendingWithdrawal(system, borrower, 7000, borrower.codes);
    expect((await system.request('GET', '/api/user/profile', { token: borrower.token })).body.balance).toBe(43000);
    const res = await decide(withdrawal.id, { status: 'rejected', reason: 'Account name does not match' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'rejected', reason: 'Account name does not match', processedAt: expect.any(String) });
    expect((await system.request('GET', '/api/user/profile', { token: borrower.token })).body.balance).toBe(50000);
    const [rejected] = (await system.store.readStream(streams.member(borrower.id))).filter((e) => e.type === 'WithdrawalRejected');
    expect(rejected.metadata).toMatchObject({ actorId: officer.id, ip: '127.0.0.1' });
  });

  it('answers a second decision, or two admins deciding at once, with 409; only one decision stands', async () => {
    const borrower = await fundedBorrower('Decided Twice');
    const withdrawal = await pendingWithdrawal(system, borrower, 4000, borrower.codes);
    const answers = await Promise.all([decide(withdrawal.id, { status: 'completed' }), decide(withdrawal.id, { status: 'rejected' }, otherOfficer.token)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const refused = answers.find((a) => a.status === 409)!;
    expect(refused.body.code).toBe('WITHDRAWAL_ALREADY_DECIDED');
    const decisions = (await system.store.readStream(streams.member(borrower.id))).filter((e) => e.type === 'WithdrawalCompleted' || e.type === 'WithdrawalRejected');
    expect(decisions).toHaveLength(1);
    const balance = (await system.request('GET', '/api/user/profile', { token: borrower.token })).body.balance;
    expect(balance).toBe(decisions[0].type === 'WithdrawalCompleted' ? 46000 : 50000);
    const again = await decide(withdrawal.id, { status: 'completed' });
    expect(again.status).toBe(409);
  });

  it('answers anything but completed or rejected with 409, and bad input with 400', async () => {
    const borrower = await fundedBorrower('Odd Decisions');
    const withdrawal = await pendingWithdrawal(system, borrower, 1500, borrower.codes);
    for (const status of ['approved', 'pending']) {
      const res = await decide(withdrawal.id, { status });
      expect(res.status, status).toBe(409);
      expect(res.body).toMatchObject({ code: 'ILLEGAL_WITHDRAWAL_DECISION', currentStatus: 'pending' });
    }
    const cases: [unknown, string, string][] = [
      [{ status: 'paid' }, 'status', 'Status must be completed or rejected'],
      [{}, 'status', 'Status must be completed or rejected'],
      [{ status: 'completed', processedAt: 'yesterday' }, 'processedAt', 'processedAt must be a date and time, e.g. 2026-11-22T08:00:00Z'],
      [{ status: 'completed', processedAt: new Date(Date.now() + 86_400_000).toISOString() }, 'processedAt', 'processedAt must be between the request and now'],
    ];
    for (const [body, field, message] of cases) {
      const res = await decide(withdrawal.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.details.fields[field]).toBe(message);
    }
    expect((await decide('00000000-0000-4000-8000-000000000000', { status: 'completed' })).status).toBe(404);
    expect((await system.request('GET', `/api/admin/withdrawals/${withdrawal.id}`, { token: officer.token })).body.status).toBe('pending');
  });
});

describe('admin withdrawals: the CSV report', () => {
  it('exports the filtered list as CSV, every cell quoted, formulas defused', async () => {
    const tag = `Export${Date.now() % 100000}`;
    const borrower = await fundedBorrower(`${tag} Santos`);
    const attacker = await fundedBorrower('Plain Name');
    await system.request('PUT', `/api/admin/users/${attacker.id}`, { token: officer.token, body: { fullName: `=HYPERLINK("http://evil.test","${tag}")` } });
    const a = await pendingWithdrawal(system, borrower, 1000, borrower.codes);
    const b = await pendingWithdrawal(system, attacker, 2000, attacker.codes);
    await decide(a.id, { status: 'completed' });

    const res = await fetch(`${system.baseUrl}/api/admin/withdrawals/export?search=${tag}`, { headers: { Authorization: `Bearer ${officer.token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="withdrawals-\d{4}-\d{2}-\d{2}\.csv"$/);
    const text = (await res.text()).replace(/^\uFEFF/, '');
    const lines = text.trim().split('\r\n');
    expect(lines[0]).toBe('"Withdrawal number","Member","Phone","Email","Amount (PHP)","Bank","Account number","Status","Reason","Requested at (Manila)","Processed at (Manila)"');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(`"${b.withdrawalNumber}","'=HYPERLINK(""http://evil.test"",""${tag}"")"`);
    // Identifiers stay text in a spreadsheet (issue 22, item 3): ="…" keeps the digits as typed.
    expect(lines[1]).toContain('"2000.00","BPI","=""1234567890""","pending"');
    expect(lines[2]).toContain(`"${a.withdrawalNumber}","${tag} Santos","=""${borrower.phone}"""`);
    // Manila time with its offset.
    expect(lines[2]).toMatch(/"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+08:00"/);
    expect(lines[2]).toContain('"completed"');

    const pendingOnly = await fetch(`${system.baseUrl}/api/admin/withdrawals/export?search=${tag}&status=pending`, { headers: { Authorization: `Bearer ${officer.token}` } });
    expect((await pendingOnly.text()).trim().split('\r\n')).toHaveLength(2);
    expect((await fetch(`${system.baseUrl}/api/admin/withdrawals/export`)).status).toBe(401);
  });
});

describe('admin withdrawals and stats: who may', () => {
  it('answers 401 without a token and 403 for a borrower', async () => {
    const borrower = await fundedBorrower('Self Payer');
    const withdrawal = await pendingWithdrawal(system, borrower, 1000, borrower.codes);
    const routes: [string, string, unknown?][] = [
      ['GET', '/api/admin/withdrawals'],
      ['GET', '/api/admin/withdrawals/export'],
      ['GET', `/api/admin/withdrawals/${withdrawal.id}`],
      ['PUT', `/api/admin/withdrawals/${withdrawal.id}`, { status: 'completed' }],
      ['GET', '/api/admin/stats'],
    ];
    for (const [method, path, body] of routes) {
      expect((await system.request(method, path, { body })).status, `${method} ${path}`).toBe(401);
      const res = await system.request(method, path, { body, token: borrower.token });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.message).toBe("Access Denied - You don't have permission to access the management panel.");
    }
    expect((await system.request('GET', '/api/withdrawals', { token: borrower.token })).body[0].status).toBe('pending');
  });
});
