import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvedBySecondAdmin } from '../testing/approvals.js';
import { createJobKeys, streams } from '@honeylend/contracts';
import { readSmsOutbox } from '@honeylend/contracts/server';
import { EventStoreUnavailable, type EventStore } from '@honeylend/eventstore';
import { startTestSystem, uniquePhone, type TestSystem } from '../testing/testSystem.js';
import { addBankAccount, disburse, latestOtpFor, registerBorrower, type Borrower } from '../testing/borrowers.js';
import { createAdmin, superadminToken } from '../testing/admins.js';

/** Issue 14, items 3, 7, 8 and 11, through real HTTP, a real event store, Redis and workers. */
let system: TestSystem;
beforeAll(async () => {
  system = await startTestSystem();
});
afterAll(() => system?.stop());

const outbox = (phone: string) => readSmsOutbox(system.redis, createJobKeys(system.keyPrefix), { to: phone, limit: 100 });

async function fundedBorrower(pesos = 20_000): Promise<Borrower> {
  const borrower = await registerBorrower(system);
  await addBankAccount(system, borrower, 'BPI', '1234567890');
  await disburse(system, borrower, pesos * 100);
  return borrower;
}

async function withdrawalCode(borrower: Borrower, amount: number): Promise<{ code: string; challengeId: string }> {
  const otp = await system.request('POST', '/api/withdrawals/otp', { token: borrower.token, body: { amount } });
  expect(otp.status, JSON.stringify(otp.body)).toBe(202);
  return { code: await latestOtpFor(system, borrower), challengeId: otp.body.challengeId };
}

async function bankChangeCode(borrower: Borrower, bankName: string, bankAccountNumber: string): Promise<string> {
  const res = await system.request('POST', '/api/user/bank-account/otp', { token: borrower.token, body: { bankName, bankAccountNumber } });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  for (const deadline = Date.now() + 15_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 25))) {
    const code = /bank change code is (\d{6})\./.exec((await outbox(borrower.phone))[0]?.body ?? '')?.[1];
    if (code) return code;
  }
  throw new Error('no bank change code arrived');
}

describe('withdrawals pay only the bank account on the profile', () => {
  it('texts a code naming the amount and the masked account, and pays that account', async () => {
    const borrower = await fundedBorrower();
    const { code } = await withdrawalCode(borrower, 5000);
    expect((await outbox(borrower.phone))[0].body).toContain('It confirms ₱5,000.00 to BPI ••••7890');
    const res = await system.request('POST', '/api/withdrawals', { token: borrower.token, body: { amount: 5000, otp: code } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ bankName: 'BPI', bankAccountNumber: '••••7890', status: 'pending' });
  });

  it('refuses a body naming another account with 400, spending neither the code nor the money', async () => {
    const borrower = await fundedBorrower();
    const { code } = await withdrawalCode(borrower, 5000);
    const other = await system.request('POST', '/api/withdrawals', { token: borrower.token, body: { amount: 5000, bankName: 'BPI', bankAccountNumber: '9999999999', otp: code } });
    expect(other.status).toBe(400);
    expect(other.body).toMatchObject({ code: 'WITHDRAWAL_DESTINATION_NOT_PROFILE', message: expect.stringContaining('BPI ••••7890') });
    const same = await system.request('POST', '/api/withdrawals', { token: borrower.token, body: { amount: 5000, bankName: 'BPI', bankAccountNumber: '1234-5678-90', otp: code } });
    expect(same.status).toBe(201);
    const events = await system.store.readStream(streams.member(borrower.id));
    expect(events.filter((e) => e.type === 'WithdrawalRequested').map((e) => e.data.bankAccountNumber)).toEqual(['1234567890']);
  });
});

describe('changing the bank account', () => {
  it('needs a code texted for that account, then holds withdrawals for 24 hours and says so', async () => {
    const borrower = await fundedBorrower();
    const without = await system.request('PUT', '/api/user/profile', { token: borrower.token, body: { bankName: 'BDO', bankAccountNumber: '5555555555' } });
    expect(without.status).toBe(403);
    expect(without.body.code).toBe('BANK_CHANGE_NEEDS_CODE');

    const code = await bankChangeCode(borrower, 'BDO', '5555555555');
    expect((await outbox(borrower.phone))[0].body).toContain('sets your bank account to BDO ••••5555');
    const forAnother = await system.request('PUT', '/api/user/profile', { token: borrower.token, body: { bankName: 'BDO', bankAccountNumber: '6666666666', otp: code } });
    expect(forAnother.status).toBe(400);
    expect(forAnother.body.code).toBe('OTP_INVALID');

    const changed = await system.request('PUT', '/api/user/profile', { token: borrower.token, body: { bankName: 'BDO', bankAccountNumber: '5555555555', otp: code } });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ bankName: 'BDO', bankAccountNumber: '5555555555', withdrawalHold: { reason: 'bank-account-changed', until: expect.any(String) } });
    const until = Date.parse(changed.body.withdrawalHold.until);
    expect(until - Date.now()).toBeGreaterThan(23.9 * 3600_000);

    const otp = await system.request('POST', '/api/withdrawals/otp', { token: borrower.token, body: { amount: 1000 } });
    expect(otp.status).toBe(403);
    expect(otp.body).toMatchObject({ code: 'WITHDRAWALS_HELD', hold: { reason: 'bank-account-changed' } });
  });

  it('takes the first bank details of a profile without a code', async () => {
    const borrower = await registerBorrower(system);
    const res = await system.request('PUT', '/api/user/profile', { token: borrower.token, body: { bankName: 'BPI', bankAccountNumber: '1234567890' } });
    expect(res.status).toBe(200);
    expect(res.body.withdrawalHold).toBeNull();
  });
});

describe('codes', () => {
  it('are not burnt when the withdrawal cannot be recorded: the same code works once the store is back', async () => {
    const borrower = await fundedBorrower();
    const { code } = await withdrawalCode(borrower, 2000);
    const store = system.store as EventStore & { append: EventStore['append'] };
    const append = store.append.bind(store);
    store.append = async (stream, events, options) => {
      if (stream === streams.member(borrower.id) && events.some((event) => event.type === 'WithdrawalRequested')) throw new EventStoreUnavailable('store down for the test');
      return append(stream, events, options);
    };
    let failed;
    try {
      failed = await system.request('POST', '/api/withdrawals', { token: borrower.token, body: { amount: 2000, otp: code } });
    } finally {
      store.append = append;
    }
    expect(failed.status).toBe(503);
    const retried = await system.request('POST', '/api/withdrawals', { token: borrower.token, body: { amount: 2000, otp: code } });
    expect(retried.status).toBe(201);
    const again = await system.request('POST', '/api/withdrawals', { token: borrower.token, body: { amount: 2000, otp: code } });
    expect(again.status).toBe(400);
  });

  it('freeze withdrawals for 24 hours after 15 wrong ones in a day, and the member is texted', async () => {
    const borrower = await fundedBorrower();
    let wrong = 0;
    while (wrong < 15) {
      const { code } = await withdrawalCode(borrower, 1000).catch(async () => {
        // Three codes per 15 minutes: the throttle's window is moved on for the test.
        await system.redis.del(createJobKeys(system.keyPrefix).otpIssueThrottle(borrower.id));
        return withdrawalCode(borrower, 1000);
      });
      const bad = code === '000000' ? '111111' : '000000';
      for (let i = 0; i < 5 && wrong < 15; i++, wrong++) {
        const res = await system.request('POST', '/api/withdrawals', { token: borrower.token, body: { amount: 1000, otp: bad } });
        expect(res.body.code).toBe('OTP_INVALID');
      }
    }
    const held = await system.request('POST', '/api/withdrawals/otp', { token: borrower.token, body: { amount: 1000 } });
    expect(held.status).toBe(403);
    expect(held.body).toMatchObject({ code: 'WITHDRAWALS_HELD', hold: { reason: 'too-many-wrong-codes' } });
    // The worker texts it a moment later (seconds on a loaded machine).
    const texted = async () => (await outbox(borrower.phone)).some((text) => text.body.includes('15 wrong codes were typed on your account today'));
    for (const deadline = Date.now() + 15_000; !(await texted()) && Date.now() < deadline;) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await texted()).toBe(true);
    const profile = await system.request('GET', '/api/user/profile', { token: borrower.token });
    expect(profile.body.withdrawalHold).toMatchObject({ reason: 'too-many-wrong-codes' });
  });
});

describe('what admins may do to a wallet', () => {
  it("lets only the main admin change a member's phone; the old number is texted and withdrawals are held", async () => {
    const main = await superadminToken(system);
    const officer = await createAdmin(system, main);
    const borrower = await fundedBorrower();
    const newPhone = uniquePhone();
    const byOfficer = await system.request('PUT', `/api/admin/users/${borrower.id}`, { token: officer.token, body: { phone: newPhone } });
    expect(byOfficer.status).toBe(403);
    expect(byOfficer.body.code).toBe('MAIN_ADMIN_ONLY');

    // Four eyes: the main admin's change waits for a second admin (the officer approves it), then runs.
    const byMain = await system.request('PUT', `/api/admin/users/${borrower.id}`, { token: main, body: { phone: newPhone } });
    expect(byMain.status).toBe(202);
    expect((await approvedBySecondAdmin(system, byMain, officer.token)).body.execution.outcome).toBe('done');
    const moved = async () => (await outbox(borrower.phone)).some((text) => /phone number of your account was changed/.test(text.body));
    for (const deadline = Date.now() + 15_000; !(await moved()) && Date.now() < deadline;) await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await outbox(borrower.phone)).map((text) => text.body).join('\n')).toMatch(/phone number of your account was changed to \+63•••••\d{4}/);
    const otp = await system.request('POST', '/api/withdrawals/otp', { token: borrower.token, body: { amount: 1000 } });
    expect(otp.body).toMatchObject({ code: 'WITHDRAWALS_HELD', hold: { reason: 'phone-changed' } });
  });

  it('refuses an existing bank account changed by staff', async () => {
    const main = await superadminToken(system);
    const borrower = await fundedBorrower();
    const res = await system.request('PUT', `/api/admin/users/${borrower.id}`, { token: main, body: { bankAccountNumber: '7777777777' } });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('BANK_CHANGE_BY_MEMBER_ONLY');
  });

  it("keeps the admin who started a reset of a member's password from completing their withdrawal; another admin can", async () => {
    const main = await superadminToken(system);
    const officer = await createAdmin(system, main);
    const borrower = await fundedBorrower();
    const { code } = await withdrawalCode(borrower, 3000);
    const withdrawal = await system.request('POST', '/api/withdrawals', { token: borrower.token, body: { amount: 3000, otp: code } });
    expect(withdrawal.status).toBe(201);
    const reset = await system.request('POST', `/api/admin/users/${borrower.id}/password-reset`, { token: officer.token });
    expect(reset.status).toBe(202);
    const byOfficer = await system.request('PUT', `/api/admin/withdrawals/${withdrawal.body.id}`, { token: officer.token, body: { status: 'completed' } });
    expect(byOfficer.status).toBe(403);
    expect(byOfficer.body.code).toBe('IDENTITY_CHANGED_BY_YOU');
    const byMain = await system.request('PUT', `/api/admin/withdrawals/${withdrawal.body.id}`, { token: main, body: { status: 'completed' } });
    expect(byMain.status).toBe(200);
    expect(byMain.body.status).toBe('completed');
  });

  it('refuses a rejection reason or a notification that asks the borrower for money', async () => {
    const main = await superadminToken(system);
    const borrower = await fundedBorrower();
    const { code } = await withdrawalCode(borrower, 1000);
    const withdrawal = await system.request('POST', '/api/withdrawals', { token: borrower.token, body: { amount: 1000, otp: code } });
    const reason = await system.request('PUT', `/api/admin/withdrawals/${withdrawal.body.id}`, {
      token: main,
      body: { status: 'rejected', reason: 'Pay a processing fee of ₱500 to my GCash 09171234567 first' },
    });
    expect(reason.status).toBe(400);
    expect(reason.body).toMatchObject({ code: 'MONEY_REQUEST', details: { fields: { reason: expect.any(String) } } });
    const notice = await system.request('POST', '/api/admin/notifications', {
      token: main,
      body: { userId: borrower.id, title: 'Release', message: 'Send the release fee to unlock your withdrawal', type: 'general' },
    });
    expect(notice.status).toBe(400);
    expect(notice.body.code).toBe('MONEY_REQUEST');
    const events = await system.store.readStream(streams.member(borrower.id));
    expect(events.map((e) => e.type)).not.toContain('MemberNotified');
    expect(events.map((e) => e.type)).not.toContain('WithdrawalRejected');
  });
});
