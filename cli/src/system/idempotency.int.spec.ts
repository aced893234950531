import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streams } from '@honeylend/contracts';
import { startTestSystem, SUPERADMIN, type TestSystem } from '../testing/testSystem.js';
import { disburse, latestOtpFor, registerBorrower, verifyBorrower } from '../testing/borrowers.js';

let system: TestSystem;
beforeAll(async () => {
  system = await startTestSystem();
});
afterAll(() => system?.stop());

describe('Idempotency-Key', () => {
  it('a loan application sent 10 times with one key creates one loan and answers the same each time', async () => {
    const borrower = await registerBorrower(system);
    await verifyBorrower(system, borrower);
    const key = randomUUID();
    const send = () =>
      system.request('POST', '/api/loans', { token: borrower.token, headers: { 'Idempotency-Key': key }, body: { amount: 80000, purpose: 'School fees', termMonths: 12 } });
    // Two at once (a double click), then eight retries (as after a client timeout).
    const answers = [...(await Promise.all([send(), send()]))];
    for (let i = 0; i < 8; i++) answers.push(await send());
    expect(new Set(answers.map((a) => a.status))).toEqual(new Set([201]));
    expect(new Set(answers.map((a) => JSON.stringify(a.body))).size).toBe(1);
    expect(answers.filter((a) => a.headers.get('idempotent-replayed') === 'true')).toHaveLength(9);
    const applied = (await system.store.readAll({ limit: 100_000 })).filter((e) => e.type === 'LoanApplied' && e.data.memberId === borrower.id);
    process.stdout.write(`idempotency: duplicates ${applied.length - 1}\n`);
    expect(applied).toHaveLength(1);
  });

  it('a withdrawal and a balance adjustment repeated with their keys happen once', async () => {
    const borrower = await registerBorrower(system);
    await disburse(system, borrower, 1_000_000);
    await system.request('POST', '/api/withdrawals/otp', { token: borrower.token, body: { amount: 1000 } });
    const otp = await latestOtpFor(system, borrower);
    const withdrawalKey = randomUUID();
    const withdrawals = [];
    for (let i = 0; i < 10; i++) {
      withdrawals.push(
        await system.request('POST', '/api/withdrawals', {
          token: borrower.token,
          headers: { 'Idempotency-Key': withdrawalKey },
          body: { amount: 1000, bankName: 'BPI', bankAccountNumber: '1234567890', otp },
        }),
      );
    }
    expect(new Set(withdrawals.map((w) => w.status))).toEqual(new Set([201]));
    expect(new Set(withdrawals.map((w) => w.body.id)).size).toBe(1);

    const admin = await system.request('POST', '/api/auth/admin-login', { body: SUPERADMIN });
    const adjustmentKey = randomUUID();
    for (let i = 0; i < 10; i++) {
      const res = await system.request('POST', `/api/admin/users/${borrower.id}/balance-adjustments`, {
        token: admin.body.token,
        headers: { 'Idempotency-Key': adjustmentKey },
        body: { amount: 250, reason: 'Goodwill credit for a delayed payout' },
      });
      expect(res.status).toBe(201);
    }
    const events = await system.store.readStream(streams.member(borrower.id));
    expect(events.filter((e) => e.type === 'WithdrawalRequested')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'BalanceAdjusted')).toHaveLength(1);
  });

  it('answers a refused first attempt the same way again, and refuses the key for a different request', async () => {
    const borrower = await registerBorrower(system);
    const key = randomUUID();
    // Unverified: refused with 403, which is kept as the answer for this key.
    const first = await system.request('POST', '/api/loans', { token: borrower.token, headers: { 'Idempotency-Key': key }, body: { amount: 80000, purpose: 'School fees', termMonths: 12 } });
    expect(first.status).toBe(403);
    const different = await system.request('POST', '/api/loans', { token: borrower.token, headers: { 'Idempotency-Key': key }, body: { amount: 90000, purpose: 'School fees', termMonths: 12 } });
    expect(different.status).toBe(422);
    expect(different.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    const same = await system.request('POST', '/api/loans', { token: borrower.token, headers: { 'Idempotency-Key': key }, body: { amount: 80000, purpose: 'School fees', termMonths: 12 } });
    expect(same.status).toBe(403);
    expect(same.body).toEqual(first.body);
    expect(same.headers.get('idempotent-replayed')).toBe('true');
  });

  it('refuses a malformed key', async () => {
    const borrower = await registerBorrower(system);
    const res = await system.request('POST', '/api/loans', { token: borrower.token, headers: { 'Idempotency-Key': 'bad key!' }, body: {} });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INVALID_IDEMPOTENCY_KEY');
  });
});
