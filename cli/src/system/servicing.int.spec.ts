import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '@honeylend/contracts';
import { allProjections, rebuildReadModels } from '@honeylend/projections';
import { snapshotKeys } from '../../../projections/src/testing/redisSnapshot.js';
import { createAdmin, superadminToken } from '../testing/admins.js';
import { approvedBySecondAdmin } from '../testing/approvals.js';
import { activeLoan, loanOf, moveBusinessDate, payFromWallet, providerPayment, recordRepayment, type ActiveLoan } from '../testing/servicing.js';
import { REDIS_URL, startTestSystem, type TestSystem } from '../testing/testSystem.js';

let system: TestSystem;
let admin: string;
let checker: string;
beforeAll(async () => {
  system = await startTestSystem();
  admin = await superadminToken(system);
  // Four eyes: a reversal and a waiver by the main admin run once this second admin approves them.
  checker = (await createAdmin(system, admin)).token;
});
afterAll(() => system?.stop());

const balanceOf = async (loan: ActiveLoan) => (await system.request('GET', '/api/user/profile', { token: loan.borrower.token })).body.balance;

/**
 * A ₱120,000 loan over 12 months at 2.5 % flat (instalments of ₱13,000: ₱10,000 principal and
 * ₱3,000 interest), lived through 14 months with the dev business date.
 */
describe('a loan serviced for 14 months', () => {
  it('takes on-time, late, provider, back-dated and reversed payments and a waiver, then is paid off and completed; the read models equal a replay', async () => {
    const loan = await activeLoan(system, admin);
    const start = await loanOf(system, loan);
    expect(start).toMatchObject({ status: 'active', outstanding: { principal: 120_000, interest: 36_000, penalties: 0, total: 156_000 }, daysPastDue: 0, delinquencyBucket: 'current' });
    expect(start.schedule).toHaveLength(12);
    expect(start.schedule[0]).toMatchObject({ number: 1, month: 1, amount: 13_000, principal: 10_000, interest: 3_000, penalty: 0, paid: 0, status: 'upcoming' });
    expect(await balanceOf(loan)).toBe(120_000);
    const due = loan.dueDates;

    // Months 1 and 2: on time from the wallet; the receipt shows the allocation.
    await moveBusinessDate(system, admin, due[0]);
    expect((await loanOf(system, loan)).schedule[0].status).toBe('due');
    const first = await payFromWallet(system, loan, 13_000, 'first-instalment-key');
    expect(first).toMatchObject({ receiptNumber: expect.stringMatching(/^OR-\d{4}-\d{6}-001$/), amount: 13_000, valueDate: due[0], allocation: [{ instalment: 1, penalty: 0, interest: 3_000, principal: 10_000 }] });
    // The same Idempotency-Key again: the first receipt, nothing paid twice.
    expect((await payFromWallet(system, loan, 13_000, 'first-instalment-key')).id).toBe(first.id);
    expect(await balanceOf(loan)).toBe(107_000);
    await moveBusinessDate(system, admin, due[1]);
    await payFromWallet(system, loan, 13_000);

    // Month 3: through the payment provider's signed webhook; a replay records nothing; a forged signature is 401.
    await moveBusinessDate(system, admin, due[2]);
    const webhook = { reference: 'MAYA-7781', loanNumber: loan.loanNumber, amount: 13_000, paidAt: `${due[2]}T09:30:00+08:00`, channel: 'maya' };
    const viaProvider = await providerPayment(system, webhook);
    expect(viaProvider.status).toBe(201);
    expect((await providerPayment(system, webhook)).body.id).toBe(viaProvider.body.id);
    expect((await providerPayment(system, { ...webhook, reference: 'MAYA-7782' }, `sha256=${'0'.repeat(64)}`)).status).toBe(401);
    expect((await loanOf(system, loan)).repayments).toHaveLength(3);

    // Month 4: ten days late. Charged 6 days (after the 3 grace days; the 10th is still open): 13,000 × 2 % / 30 × 6 = ₱52.00.
    await moveBusinessDate(system, admin, addDays(due[3], 10));
    const late = await loanOf(system, loan);
    expect(late.schedule[3]).toMatchObject({ status: 'overdue', daysPastDue: 10, penalty: 52 });
    expect(late).toMatchObject({ daysPastDue: 10, delinquencyBucket: '1-30', outstanding: { penalties: 52 } });
    const latePayment = await recordRepayment(system, admin, loan, { amount: 13_052, channel: 'bank', reference: 'BDO-0004', valueDate: addDays(due[3], 10) });
    expect(latePayment.allocation).toEqual([{ instalment: 4, penalty: 52, interest: 3_000, principal: 10_000 }]);
    expect((await loanOf(system, loan)).delinquencyBucket).toBe('current');

    // Month 5: paid on its due date but recorded 8 days later (back-dated): no late charge, as if on time.
    await moveBusinessDate(system, admin, addDays(due[4], 8));
    expect((await loanOf(system, loan)).schedule[4]).toMatchObject({ status: 'overdue', penalty: 34.67 });
    await recordRepayment(system, admin, loan, { amount: 13_000, channel: 'cash', reference: 'OTC-0005', valueDate: due[4] });
    expect((await loanOf(system, loan)).schedule[4]).toMatchObject({ status: 'paid', penalty: 0, paid: 13_000, daysPastDue: 0 });

    // Month 6: a cheque on the due date bounces 20 days later (reversed); 16 days charged: ₱138.67; ₱100 waived; the rest paid.
    await moveBusinessDate(system, admin, due[5]);
    const cheque = await recordRepayment(system, admin, loan, { amount: 13_000, channel: 'bank', reference: 'CHQ-0006', valueDate: due[5] });
    await moveBusinessDate(system, admin, addDays(due[5], 20));
    const reversal = await system.request('POST', `/api/admin/loans/${loan.loanId}/repayments/${cheque.id}/reversal`, { token: admin, body: { reason: 'Cheque bounced' } });
    expect(reversal.status).toBe(202);
    // One request per repayment: asking again while it waits is refused, so two grants never report two reversals.
    const twice = await system.request('POST', `/api/admin/loans/${loan.loanId}/repayments/${cheque.id}/reversal`, { token: checker, body: { reason: 'Cheque bounced' } });
    expect(twice).toMatchObject({ status: 409, body: { code: 'APPROVAL_ALREADY_PENDING', details: { approvalId: reversal.body.approvalId } } });
    // The servicing drawer finds it on the repayment it is about, through the member's requests.
    const waiting = await system.request('GET', `/api/admin/approvals?status=pending&memberId=${loan.borrower.id}&pageSize=100`, { token: checker });
    expect(waiting.body.items).toEqual([expect.objectContaining({ id: reversal.body.approvalId, loanId: loan.loanId, target: `repayment:${cheque.id}` })]);
    // Until a second admin approves, the cheque still counts.
    expect((await loanOf(system, loan)).schedule[5]).toMatchObject({ status: 'paid', paid: 13_000 });
    await approvedBySecondAdmin(system, reversal, checker);
    const reversed = await system.request('GET', `/api/admin/loans/${loan.loanId}`, { token: admin });
    expect(reversed.status).toBe(200);
    expect(reversed.body.schedule[5]).toMatchObject({ status: 'overdue', daysPastDue: 20, penalty: 138.67, paid: 0 });
    expect(reversed.body.repayments.find((r: { id: string }) => r.id === cheque.id)).toMatchObject({ reversed: true });
    const tooMuch = await system.request('POST', `/api/admin/loans/${loan.loanId}/penalty-waivers`, { token: admin, body: { amount: 138.68, reason: 'Bank error on our side' } });
    expect(tooMuch).toMatchObject({ status: 400, body: { code: 'WAIVER_ABOVE_PENALTIES' } });
    const waiver = await system.request('POST', `/api/admin/loans/${loan.loanId}/penalty-waivers`, { token: admin, body: { amount: 100, reason: 'Bank error on our side' } });
    expect(waiver.status).toBe(202);
    expect((await loanOf(system, loan)).outstanding.penalties).toBe(138.67);
    await approvedBySecondAdmin(system, waiver, checker);
    const waived = await system.request('GET', `/api/admin/loans/${loan.loanId}`, { token: admin });
    expect(waived.body.outstanding.penalties).toBe(38.67);
    await recordRepayment(system, admin, loan, { amount: 13_038.67, channel: 'gcash', reference: 'GC-0006', valueDate: addDays(due[5], 20) });

    // Months 7 to 11 on time from the wallet and a bank, then month 12: the payoff quote is paid and closes the loan.
    for (let n = 7; n <= 11; n++) {
      await moveBusinessDate(system, admin, due[n - 1]);
      await recordRepayment(system, admin, loan, { amount: 13_000, channel: 'bank', reference: `BPI-${n}`, valueDate: due[n - 1] });
    }
    await moveBusinessDate(system, admin, addDays(due[10], 5));
    const quote = await system.request('GET', `/api/loans/${loan.loanId}/payoff-quote`, { token: loan.borrower.token });
    // Only instalment 12's principal is left; its interest is not yet due, so it is not owed.
    expect(quote.body).toMatchObject({ amount: 10_000, breakdown: { principal: 10_000, interest: 0, penalties: 0 } });
    const above = await system.request('POST', `/api/loans/${loan.loanId}/repayments`, { token: loan.borrower.token, body: { amount: 10_000.01 } });
    expect(above).toMatchObject({ status: 400, body: { code: 'AMOUNT_ABOVE_PAYOFF' } });
    const walletBefore = await balanceOf(loan);
    await payFromWallet(system, loan, quote.body.amount);
    expect(await balanceOf(loan)).toBe(walletBefore - 10_000);
    const done = await loanOf(system, loan);
    expect(done).toMatchObject({ status: 'completed', outstanding: { total: 0 }, nextDue: null });
    expect(done.schedule.every((row: { status: string }) => row.status === 'paid')).toBe(true);

    // Month 14: the day close leaves a completed loan alone; the borrower may apply again.
    const later = await moveBusinessDate(system, admin, addDays(due[0], 395));
    expect(later.date).toBe(addDays(due[0], 395));
    expect((await loanOf(system, loan)).status).toBe('completed');
    const again = await system.request('POST', '/api/loans', { token: loan.borrower.token, body: { amount: 80_000, purpose: 'Second store', termMonths: 12 } });
    expect(again.status).toBe(201);

    // The book as the projections built it equals a replay of the log.
    const live = await snapshotKeys(system.redis, `${system.keyPrefix}rm:`);
    const redis = new Redis(REDIS_URL);
    try {
      await rebuildReadModels({ store: system.store, redis, keyPrefix: system.keyPrefix, projections: allProjections, logger: { info() {}, warn() {}, error() {} } });
    } finally {
      redis.disconnect();
    }
    const replayed = await snapshotKeys(system.redis, `${system.keyPrefix}rm:`);
    delete live[`${system.keyPrefix}rm:changes`];
    delete replayed[`${system.keyPrefix}rm:changes`];
    expect(replayed).toEqual(live);
  }, 120_000);
});
