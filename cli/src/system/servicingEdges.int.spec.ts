import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, streams } from '@honeylend/contracts';
import { closeBusinessDays, handleCommand, memberDecider } from '@honeylend/command-api';
import { createAdmin, superadminToken } from '../testing/admins.js';
import { approvedBySecondAdmin } from '../testing/approvals.js';
import { activeLoan, loanOf, moveBusinessDate, payFromWallet, recordRepayment } from '../testing/servicing.js';
import { startTestSystem, type TestSystem } from '../testing/testSystem.js';

let system: TestSystem;
let admin: string;
// 10:00 in Manila: reminders may go out.
let clock = new Date('2026-11-24T02:00:00.000Z');
beforeAll(async () => {
  system = await startTestSystem({ now: () => clock });
  admin = await superadminToken(system);
});
afterAll(() => system?.stop());

const eventsOf = async (stream: string, type: string) => (await system.store.readStream(stream)).filter((event) => event.type === type);
const balanceOf = async (token: string) => (await system.request('GET', '/api/user/profile', { token })).body.balance;

describe('wallet repayments across two streams', () => {
  it('never debits twice or loses a debit: a writer that died after the debit is finished by the retry with the same key', async () => {
    const loan = await activeLoan(system, admin, { fullName: 'Crash Resume' });
    const { derivedId } = await import('../../../command-api/src/platform/ids/derivedId.js');
    const repaymentId = derivedId(`wallet-repayment:${loan.borrower.id}:retry-key-0001`);
    // The first attempt's writer died right after the debit: the wallet is down, the loan has not heard of it.
    await handleCommand(
      system.store,
      streams.member(loan.borrower.id),
      memberDecider,
      { type: 'DebitWalletRepayment', memberId: loan.borrower.id, loanId: loan.loanId, repaymentId, amountCentavos: 500_000, now: new Date().toISOString() },
      { actorId: loan.borrower.id },
    );
    const receipt = await payFromWallet(system, loan, 5_000, 'retry-key-0001');
    expect(receipt.id).toBe(repaymentId);
    expect(await eventsOf(streams.member(loan.borrower.id), 'WalletRepaymentDebited')).toHaveLength(1);
    expect(await eventsOf(streams.loan(loan.loanId), 'RepaymentReceived')).toHaveLength(1);
    expect(await balanceOf(loan.borrower.token)).toBe(115_000);
  });

  it('finishes an unsettled debit on the next payment, and declines and refunds one the loan refuses', async () => {
    const loan = await activeLoan(system, admin, { fullName: 'Unsettled Debit', amount: 80_000 });
    const orphan = '6e0b1c0a-3f7d-4a5e-9b1c-2d3e4f5a6b7c';
    await handleCommand(
      system.store,
      streams.member(loan.borrower.id),
      memberDecider,
      { type: 'DebitWalletRepayment', memberId: loan.borrower.id, loanId: loan.loanId, repaymentId: orphan, amountCentavos: 100_000, now: new Date().toISOString() },
      { actorId: loan.borrower.id },
    );
    await payFromWallet(system, loan, 2_000);
    const received = (await eventsOf(streams.loan(loan.loanId), 'RepaymentReceived')).map((event) => event.data.repaymentId);
    expect(received).toContain(orphan);
    expect(await balanceOf(loan.borrower.token)).toBe(77_000);

    // Two payments of the payoff amount at once: the loan takes one; the other is refused before the debit, or declined and refunded after it.
    // Four eyes: the main admin's credit runs once a second admin approves it.
    await approvedBySecondAdmin(
      system,
      await system.request('POST', `/api/admin/users/${loan.borrower.id}/balance-adjustments`, { token: admin, body: { amount: 100_000, reason: 'Funds to pay off twice' } }),
      (await createAdmin(system, admin)).token,
    );
    const quote = (await system.request('GET', `/api/loans/${loan.loanId}/payoff-quote`, { token: loan.borrower.token })).body.amount;
    const answers = await Promise.all([1, 2].map(() => system.request('POST', `/api/loans/${loan.loanId}/repayments`, { token: loan.borrower.token, body: { amount: quote } })));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(['LOAN_NOT_ACTIVE', 'AMOUNT_ABOVE_PAYOFF', 'OVERPAYMENT_CONFLICT']).toContain(answers.find((a) => a.status !== 201)!.body.code);
    expect((await loanOf(system, loan)).status).toBe('completed');
    expect(await balanceOf(loan.borrower.token)).toBe(Math.round((177_000 - quote) * 100) / 100);
    const debits = await eventsOf(streams.member(loan.borrower.id), 'WalletRepaymentDebited');
    const refunds = await eventsOf(streams.member(loan.borrower.id), 'WalletRepaymentRefunded');
    const declined = await eventsOf(streams.loan(loan.loanId), 'WalletRepaymentDeclined');
    expect(refunds.map((event) => event.data.repaymentId)).toEqual(declined.map((event) => event.data.repaymentId));
    expect(debits.length - refunds.length).toBe((await eventsOf(streams.loan(loan.loanId), 'RepaymentReceived')).length);
  });

  it('keeps the wallet from going below zero under concurrent payments', async () => {
    const loan = await activeLoan(system, admin, { fullName: 'Wallet Floor', amount: 80_000 });
    const answers = await Promise.all(Array.from({ length: 6 }, () => system.request('POST', `/api/loans/${loan.loanId}/repayments`, { token: loan.borrower.token, body: { amount: 30_000 } })));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(2);
    expect(answers.filter((a) => a.status === 400).every((a) => a.body.code === 'INSUFFICIENT_FUNDS')).toBe(true);
    expect(await balanceOf(loan.borrower.token)).toBe(20_000);
  });
});

describe('the day close', () => {
  it('moves the development business date at most two years at once, and never back: a move to 2999 is refused and changes nothing', async () => {
    const before = (await system.request('GET', '/api/dev/business-date', { token: admin })).body.date as string;
    const far = await system.request('POST', '/api/dev/business-date', { token: admin, body: { date: '2999-01-01' } });
    expect(far.status, JSON.stringify(far.body)).toBe(400);
    expect(far.body).toMatchObject({ code: 'BUSINESS_DATE_TOO_FAR', message: `The business date moves at most 731 days at a time; today is ${before}.` });
    const back = await system.request('POST', '/api/dev/business-date', { token: admin, body: { date: '2000-01-01' } });
    expect(back.body).toMatchObject({ code: 'BUSINESS_DATE_BACKWARDS' });
    expect((await system.request('GET', '/api/dev/business-date', { token: admin })).body.date).toBe(before);
  });

  it('records each day once when two workers close the same days at the same time', async () => {
    const loan = await activeLoan(system, admin, { fullName: 'Two Workers' });
    const keys = system.api.deps.readModels.keys;
    const through = addDays(loan.dueDates[0], 12);
    await system.api.deps.businessClock.moveTo(through);
    const deps = { store: system.store, redis: system.redis, keys };
    await Promise.all([closeBusinessDays(deps, through), closeBusinessDays(deps, through)]);
    const once = await system.store.readStream(streams.loan(loan.loanId));
    expect(once.filter((event) => event.type === 'LateChargeApplied').map((event) => event.data.chargedFor)).toEqual(Array.from({ length: 8 }, (_, i) => addDays(loan.dueDates[0], 4 + i)));
    await system.api.deps.progress.waitFor(once.at(-1)!.position);
    await closeBusinessDays(deps, through);
    expect(await system.store.readStream(streams.loan(loan.loanId))).toHaveLength(once.length);
    expect((await loanOf(system, loan)).schedule[0]).toMatchObject({ status: 'overdue', daysPastDue: 12 });
  });

  it('answers the portfolio by bucket with PAR30, and the collections list most overdue first with the phone and last contact', async () => {
    const late = await activeLoan(system, admin, { fullName: 'Collections Late' });
    const current = await activeLoan(system, admin, { fullName: 'Collections Current' });
    // The current loan pays its first two instalments ahead; the late one pays nothing for 35 days past its first due date.
    await recordRepayment(system, admin, current, { amount: 26_000, channel: 'bank', reference: 'PORT-AHEAD', valueDate: (await system.request('GET', '/api/dev/business-date', { token: admin })).body.date });
    await moveBusinessDate(system, admin, addDays(late.dueDates[0], 35));
    const portfolio = await system.request('GET', '/api/admin/portfolio', { token: admin });
    expect(portfolio.status).toBe(200);
    expect(portfolio.body.buckets.map((b: { bucket: string }) => b.bucket)).toEqual(['current', '1-30', '31-60', '61-90', '90+']);
    expect(portfolio.body.par30).toBeGreaterThan(0);
    expect(portfolio.body.par30).toBeLessThanOrEqual(1);
    const collections = await system.request('GET', '/api/admin/collections?bucket=31-60', { token: admin });
    expect(collections.status).toBe(200);
    const row = collections.body.items.find((item: { id: string }) => item.id === late.loanId);
    expect(row).toMatchObject({ loanNumber: late.loanNumber, borrower: { fullName: 'Collections Late', phone: late.borrower.phone }, delinquencyBucket: '31-60' });
    expect(row.daysPastDue).toBeGreaterThanOrEqual(31);
    const all = (await system.request('GET', '/api/admin/collections', { token: admin })).body.items.map((item: { daysPastDue: number }) => item.daysPastDue);
    expect(all).toEqual([...all].sort((a, b) => b - a));
    expect((await system.request('GET', '/api/admin/collections?bucket=current', { token: admin })).status).toBe(400);
  });
});

describe('reminders', () => {
  it('texts and notifies the borrower 3 days before a due date, once, and waits for the morning at night', async () => {
    const loan = await activeLoan(system, admin, { fullName: 'Reminded Borrower' });
    clock = new Date('2026-11-24T14:00:00.000Z'); // 22:00 in Manila
    await moveBusinessDate(system, admin, addDays(loan.dueDates[0], -3));
    expect((await system.request('GET', '/api/notifications', { token: loan.borrower.token })).body.filter((n: { title: string }) => n.title.startsWith('Instalment'))).toEqual([]);
    clock = new Date('2026-11-25T00:30:00.000Z'); // 08:30 in Manila
    const moved = await moveBusinessDate(system, admin, addDays(loan.dueDates[0], -3));
    expect(moved.remindersSent).toBeGreaterThanOrEqual(1);
    await moveBusinessDate(system, admin, addDays(loan.dueDates[0], -2));
    const reminders = (await system.request('GET', '/api/notifications', { token: loan.borrower.token })).body.filter((n: { title: string }) => n.title.startsWith('Instalment'));
    expect(reminders).toHaveLength(1);
    expect(reminders[0].message).toContain('₱13,000.00');
    expect(reminders[0].message).toContain(loan.loanNumber);
    const texts = async () => ((await system.request('GET', '/api/dev/outbox', { token: loan.borrower.token })).body as { body: string }[]).filter((t) => t.body.includes('Instalment 1'));
    for (let i = 0; i < 100 && (await texts()).length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await texts()).toHaveLength(1);
  });
});
