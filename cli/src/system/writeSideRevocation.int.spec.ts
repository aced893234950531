import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streams } from '@honeylend/contracts';
import { startTestSystem, type TestSystem } from '../testing/testSystem.js';
import { addBankAccount, disburse, latestOtpFor, registerBorrower } from '../testing/borrowers.js';
import { createAdmin, superadminToken } from '../testing/admins.js';

/**
 * Issue 14 item 7: revocation that does not wait for the read models. With the projection runner
 * stopped, the read models still hold the old token versions, yet a token revoked by a password
 * reset or change moves no money and changes nothing.
 */
let system: TestSystem;
beforeAll(async () => {
  system = await startTestSystem();
});
afterAll(() => system?.stop());

describe('revoked tokens with the projections stopped', () => {
  it("move no money: a borrower's token revoked by a password reset, an admin's by a password change", async () => {
    const main = await superadminToken(system);
    const officer = await createAdmin(system, main);
    const borrower = await registerBorrower(system);
    await addBankAccount(system, borrower);
    await disburse(system, borrower, 1_000_000);
    const otp = await system.request('POST', '/api/withdrawals/otp', { token: borrower.token, body: { amount: 2000 } });
    expect(otp.status).toBe(202);
    const code = await latestOtpFor(system, borrower);

    await system.stopProjections();
    const reset = await system.request('POST', `/api/admin/users/${borrower.id}/password-reset`, { token: main });
    expect([200, 202]).toContain(reset.status);
    const officerPassword = await system.request('PATCH', `/api/admin/users/${officer.id}`, { token: main, body: { password: 'Narra-Tree#2027' } });
    expect([200, 202]).toContain(officerPassword.status);

    const before = await system.store.readStream(streams.member(borrower.id));
    const withdrawal = await system.request('POST', '/api/withdrawals', { token: borrower.token, body: { amount: 2000, otp: code } });
    expect(withdrawal.status).toBe(401);
    const newCode = await system.request('POST', '/api/withdrawals/otp', { token: borrower.token, body: { amount: 2000 } });
    expect(newCode.status).toBe(401);
    const adjustment = await system.request('POST', `/api/admin/users/${borrower.id}/balance-adjustments`, { token: officer.token, body: { amount: -5000, reason: 'Taking the money out' } });
    expect(adjustment.status).toBe(401);
    const after = await system.store.readStream(streams.member(borrower.id));
    expect(after.length).toBe(before.length);
  });
});
