import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streams } from '@honeylend/contracts';
import { startTestSystem, type TestSystem } from '../../../cli/src/testing/testSystem.js';
import { addBankAccount, disburse, registerBorrower, type Borrower } from '../../../cli/src/testing/borrowers.js';
import { withdrawalCodeFor } from '../../../cli/src/testing/admins.js';
import { reportFigure } from '../support/figures.js';
import { scaled } from '../support/scale.js';

/**
 * Issue 14 item 3: a stolen session or code must not send money anywhere but the account on the
 * member's profile. Every request names another account (the spec's body fields), with a valid
 * code; each must be refused with 400, no withdrawal recorded, no code spent. Then the attacker
 * tries to move the profile's account itself: without the texted code it is refused, and with a
 * code sent for another account too.
 */
let system: TestSystem;
beforeAll(async () => {
  system = await startTestSystem();
});
afterAll(() => system?.stop());

const PROFILE_ACCOUNT = { bankName: 'BPI', bankAccountNumber: '1234567890' };
let attempts = 0;
let refused = 0;

async function fundedBorrower(): Promise<Borrower> {
  const borrower = await registerBorrower(system);
  await addBankAccount(system, borrower, PROFILE_ACCOUNT.bankName, PROFILE_ACCOUNT.bankAccountNumber);
  await disburse(system, borrower, 10_000_00);
  return borrower;
}

/** Another account: same bank with another number, another bank with the same number, or both. */
function otherAccount(i: number): { bankName: string; bankAccountNumber: string } {
  const number = String(2_000_000_000 + i * 7919).padStart(10, '0');
  switch (i % 3) {
    case 0:
      return { bankName: PROFILE_ACCOUNT.bankName, bankAccountNumber: number };
    case 1:
      return { bankName: ['GCash', 'Maya', 'BDO', 'UnionBank'][i % 4], bankAccountNumber: PROFILE_ACCOUNT.bankAccountNumber };
    default:
      return { bankName: 'Metrobank', bankAccountNumber: number };
  }
}

describe('wrong-destination withdrawals', () => {
  it('refuses every withdrawal naming an account other than the profile’s, with a valid code, spending neither code nor money', async () => {
    const borrower = await fundedBorrower();
    const otp = await system.request('POST', '/api/withdrawals/otp', { token: borrower.token, body: { amount: 1000 } });
    expect(otp.status).toBe(202);
    const code = await withdrawalCodeFor(system, borrower);
    const count = scaled(60, 600);
    for (let start = 0; start < count; start += 20) {
      const batch = Array.from({ length: Math.min(20, count - start) }, (_, i) =>
        system.request('POST', '/api/withdrawals', { token: borrower.token, body: { amount: 1000, ...otherAccount(start + i), otp: code, challengeId: otp.body.challengeId } }),
      );
      for (const answer of await Promise.all(batch)) {
        attempts++;
        if (answer.status === 400 && answer.body.code === 'WITHDRAWAL_DESTINATION_NOT_PROFILE') refused++;
      }
    }
    const events = await system.store.readStream(streams.member(borrower.id));
    expect(events.filter((event) => event.type === 'WithdrawalRequested')).toEqual([]);
    // The code was never spent on a refused request: the borrower's own withdrawal still goes through, to the profile's account.
    const own = await system.request('POST', '/api/withdrawals', { token: borrower.token, body: { amount: 1000, otp: code, challengeId: otp.body.challengeId } });
    expect(own.status).toBe(201);
    expect(own.body).toMatchObject({ bankName: 'BPI', bankAccountNumber: '••••7890' });
    expect(refused).toBe(attempts);
  });

  it('refuses moving the profile’s account without the texted code, or with a code sent for another account', async () => {
    const borrower = await fundedBorrower();
    const without = await system.request('PUT', '/api/user/profile', { token: borrower.token, body: otherAccount(0) });
    attempts++;
    if (without.status === 403 && without.body.code === 'BANK_CHANGE_NEEDS_CODE') refused++;
    const sent = await system.request('POST', '/api/user/bank-account/otp', { token: borrower.token, body: otherAccount(2) });
    expect(sent.status).toBe(202);
    const withOther = await system.request('PUT', '/api/user/profile', { token: borrower.token, body: { ...otherAccount(3), otp: '000000' } });
    attempts++;
    if (withOther.status === 400 && String(withOther.body.code).startsWith('OTP_')) refused++;
    const profile = await system.request('GET', '/api/user/profile', { token: borrower.token });
    expect(profile.body).toMatchObject(PROFILE_ACCOUNT);
    expect(refused).toBe(attempts);
  });

  afterAll(() => {
    reportFigure({ check: '17 wrong destination', name: `wrong-destination withdrawals and account moves refused of ${attempts}`, value: refused, target: String(attempts) });
  });
});
