import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRIVACY_NOTICE_VERSION, addDays, businessDateOf, createJobKeys, streams } from '@honeylend/contracts';
import { readSmsOutbox } from '@honeylend/contracts/server';
import { startTestSystem, uniquePhone, type TestSystem } from '../testing/testSystem.js';
import { addBankAccount, disburse, registerBorrower } from '../testing/borrowers.js';
import { acceptDisclosure, borrowerWithPendingLoan, createAdmin, superadminToken, withdrawalCodeFor, type TestAdmin } from '../testing/admins.js';
import { activeLoan, loanOf, moveBusinessDate } from '../testing/servicing.js';

/**
 * One clock: every rule that depends on the date reads the business date, so moving it (the dev
 * route, as the main admin) carries each deadline the product has across, as the days passing
 * would. The wall clock stands still at a morning in Manila (reminders may go out) and only ticks.
 */
const WALL_START = Date.parse('2026-11-24T02:00:00.000Z'); // 10:00 in Manila
const started = Date.now();
const wallClock = () => new Date(WALL_START + (Date.now() - started));

let system: TestSystem;
let main: string;
let officer: TestAdmin;
let colleague: TestAdmin;

beforeAll(async () => {
  system = await startTestSystem({ now: wallClock });
  main = await superadminToken(system);
  officer = await createAdmin(system, main);
  colleague = await createAdmin(system, main);
}, 60_000);
afterAll(() => system?.stop());

const businessToday = async (): Promise<string> => (await system.request('GET', '/api/dev/business-date', { token: main })).body.date;
/** Moves the business date `days` days ahead of where it is. */
const moveDays = async (days: number) => moveBusinessDate(system, main, addDays(await businessToday(), days));
const caughtUp = async () => system.api.deps.progress.waitFor(await system.store.headPosition(), 5_000);
const eventTypes = async (stream: string) => (await system.store.readStream(stream)).map((event) => event.type);
const outbox = (phone: string) => readSmsOutbox(system.redis, createJobKeys(system.keyPrefix), { to: phone, limit: 100 });

describe('one clock: each deadline falls by the business date', () => {
  it('lapses an approval not accepted within 7 business days: the loan is lapsed and accepting it is refused', async () => {
    const { borrower, loan } = await borrowerWithPendingLoan(system, 'Lapsed By Date');
    expect((await system.request('PUT', `/api/admin/loans/${loan.id}`, { token: main, body: { status: 'approved' } })).status).toBe(200);
    const { hash } = (await system.request('GET', `/api/loans/${loan.id}/disclosure`, { token: borrower.token })).body;

    await moveDays(7);
    await caughtUp();
    const seen = await system.request('GET', `/api/loans/${loan.id}`, { token: borrower.token });
    expect(seen.body).toMatchObject({ status: 'lapsed', acceptance: { awaiting: false, acceptedAt: null } });
    const refused = await system.request('POST', `/api/loans/${loan.id}/acceptance`, { token: borrower.token, body: { hash } });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('APPROVAL_LAPSED');
    expect(await eventTypes(streams.member(borrower.id))).not.toContain('LoanDisbursed');

    // An approval made on the moved date has its own 7 days from that date.
    const fresh = await borrowerWithPendingLoan(system, 'Approved On The Moved Date');
    expect((await system.request('PUT', `/api/admin/loans/${fresh.loan.id}`, { token: main, body: { status: 'approved' } })).status).toBe(200);
    await moveDays(6);
    expect((await acceptDisclosure(system, fresh.borrower.token, fresh.loan.id)).status).toBe('active');
  });

  it('expires a four-eyes request 24 business hours after it was made: it is listed expired and approving it is refused', async () => {
    const borrower = await registerBorrower(system, 'Four Eyes Expiry');
    const requested = await system.request('POST', `/api/admin/users/${borrower.id}/balance-adjustments`, { token: officer.token, body: { amount: 750, reason: 'Refund of a double charge' } });
    expect(requested.status).toBe(202);
    const { approvalId } = requested.body;

    await moveDays(1);
    await caughtUp();
    const expired = await system.request('GET', '/api/admin/approvals?status=expired', { token: colleague.token });
    expect(expired.body.items.map((item: { id: string }) => item.id)).toContain(approvalId);
    const late = await system.request('POST', `/api/admin/approvals/${approvalId}/approve`, { token: colleague.token });
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ code: 'APPROVAL_ALREADY_DECIDED', message: 'This request is already expired.' });
    expect(await eventTypes(streams.approval(approvalId))).toEqual(['ApprovalRequested', 'ApprovalExpired']);
    expect(await eventTypes(streams.member(borrower.id))).not.toContain('BalanceAdjusted');

    // A request made on the moved date is not born expired.
    const again = await system.request('POST', `/api/admin/users/${borrower.id}/balance-adjustments`, { token: officer.token, body: { amount: 750, reason: 'Refund of a double charge' } });
    const approved = await system.request('POST', `/api/admin/approvals/${again.body.approvalId}/approve`, { token: colleague.token });
    expect(approved.status).toBe(200);
    expect(approved.body.execution.outcome).toBe('done');
  });

  it('holds withdrawals for 24 business hours after a bank account change, then lets them through', async () => {
    const borrower = await registerBorrower(system, 'Bank Change Hold');
    await addBankAccount(system, borrower, 'BPI', '1234567890');
    await disburse(system, borrower, 2_000_000);
    const codeSent = await system.request('POST', '/api/user/bank-account/otp', { token: borrower.token, body: { bankName: 'BDO', bankAccountNumber: '5555555555' } });
    expect(codeSent.status).toBe(202);
    let code: string | undefined;
    for (const deadline = Date.now() + 15_000; !code && Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 25))) {
      code = /bank change code is (\d{6})\./.exec((await outbox(borrower.phone))[0]?.body ?? '')?.[1];
    }
    const changed = await system.request('PUT', '/api/user/profile', { token: borrower.token, body: { bankName: 'BDO', bankAccountNumber: '5555555555', otp: code } });
    expect(changed.status).toBe(200);
    expect(changed.body.withdrawalHold).toMatchObject({ reason: 'bank-account-changed' });
    const held = await system.request('POST', '/api/withdrawals/otp', { token: borrower.token, body: { amount: 1000 } });
    expect(held.status).toBe(403);
    expect(held.body.code).toBe('WITHDRAWALS_HELD');

    await moveDays(1);
    const profile = await system.request('GET', '/api/user/profile', { token: borrower.token });
    expect(profile.body.withdrawalHold).toBeNull();
    const free = await system.request('POST', '/api/withdrawals/otp', { token: borrower.token, body: { amount: 1000 } });
    expect(free.status, JSON.stringify(free.body)).toBe(202);

    // The withdrawal is dated on the business date, and so is its payout, as the admin console asks for it (no time of its own).
    const withdrawn = await system.request('POST', '/api/withdrawals', { token: borrower.token, body: { amount: 1000, otp: await withdrawalCodeFor(system, borrower), challengeId: free.body.challengeId } });
    expect(withdrawn.status, JSON.stringify(withdrawn.body)).toBe(201);
    const today = await businessToday();
    expect(businessDateOf(withdrawn.body.createdAt)).toBe(today);
    const paid = await system.request('PUT', `/api/admin/withdrawals/${withdrawn.body.id}`, { token: officer.token, body: { status: 'completed', payoutReference: 'BDO-0001' } });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(businessDateOf(paid.body.processedAt)).toBe(today);
  });

  it('lets a number left unconfirmed for 7 business days be registered again, and not before', async () => {
    const phone = uniquePhone();
    const register = (fullName: string) => system.request('POST', '/api/auth/register', { body: { phone, password: 'Sampaguita#2026', fullName, privacyNoticeVersion: PRIVACY_NOTICE_VERSION } });
    expect((await register('First Holder')).status).toBe(201);
    const early = await register('Second Claimant');
    expect(early.status).toBe(409);
    expect(early.body.code).toBe('ALREADY_REGISTERED');

    await moveDays(7);
    expect((await register('Second Claimant')).status).toBe(201);
  });

  it('closes the days and dates reminders and collections contacts by the business date, the days a move crosses included', async () => {
    const loan = await activeLoan(system, main, { fullName: 'Reminded By Date' });
    const [first, , , fourth] = loan.dueDates;
    const lateDay = addDays(first, 56);
    /** The days a reminder's window opens (3 days before a due date, on it, the day after), up to `day`. */
    const openingDaysThrough = (day: string) => loan.dueDates.flatMap((due) => [addDays(due, -3), due, addDays(due, 1)]).filter((opening) => opening <= day);
    await moveBusinessDate(system, main, lateDay);
    await caughtUp();

    // The day close: 56 days past due by the business date.
    const late = await loanOf(system, loan);
    expect(late.daysPastDue).toBe(56);
    expect(late.delinquencyBucket).toBe('31-60');

    // Each reminder the crossed days owed went out, dated on its own business day.
    const reminderDays = async () =>
      ((await system.request('GET', '/api/notifications', { token: loan.borrower.token })).body as { title: string; createdAt: string }[])
        .filter((notice) => notice.title.startsWith('Instalment'))
        .map((notice) => businessDateOf(notice.createdAt))
        .sort();
    const owed = openingDaysThrough(lateDay);
    expect(owed.length).toBeGreaterThanOrEqual(6);
    expect(await reminderDays()).toEqual(owed);
    const collections = await system.request('GET', '/api/admin/collections', { token: main });
    const row = collections.body.items.find((item: { id: string }) => item.id === loan.loanId);
    expect(row.lastContact).toMatchObject({ channel: 'sms' });
    expect(businessDateOf(row.lastContact.at)).toBe(owed.at(-1));

    // A reminder due today is dated today, the business day, not the calendar's; the crossed days' on their own days.
    const beforeFourth = addDays(fourth, -3);
    await moveBusinessDate(system, main, beforeFourth);
    await caughtUp();
    expect(await reminderDays()).toEqual(openingDaysThrough(beforeFourth));
    const contacted = (await system.request('GET', '/api/admin/collections', { token: main })).body.items.find((item: { id: string }) => item.id === loan.loanId);
    expect(businessDateOf(contacted.lastContact.at)).toBe(beforeFourth);
  });
});
