import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSystem, type TestSystem } from '../testing/testSystem.js';
import { addBankAccount, disburse, registerBorrower } from '../testing/borrowers.js';
import { createAdmin, superadminToken, withdrawalCodeFor } from '../testing/admins.js';

let system: TestSystem;
beforeAll(async () => {
  system = await startTestSystem();
});
afterAll(() => system?.stop());

describe('development SMS outbox (GET /api/dev/outbox)', () => {
  it("shows each caller only the texts to their own phone: staff never read a member's one-time code", async () => {
    const mainToken = await superadminToken(system);
    const officer = await createAdmin(system, mainToken);
    const borrower = await registerBorrower(system, 'Outbox Owner');
    const neighbour = await registerBorrower(system, 'Outbox Neighbour');
    await addBankAccount(system, borrower);
    await disburse(system, borrower, 500_000);
    expect((await system.request('POST', '/api/withdrawals/otp', { token: borrower.token, body: { amount: 1000 } })).status).toBe(202);
    const code = await withdrawalCodeFor(system, borrower);

    const own = await system.request('GET', '/api/dev/outbox', { token: borrower.token });
    expect(own.status).toBe(200);
    expect(own.body.map((text: { to: string }) => text.to)).toEqual([borrower.phone]);
    for (const token of [neighbour.token, officer.token, mainToken]) {
      const other = await system.request('GET', '/api/dev/outbox', { token });
      expect(other.status).toBe(200);
      expect(JSON.stringify(other.body)).not.toContain(code);
      expect(other.body.filter((text: { to: string }) => text.to === borrower.phone)).toEqual([]);
    }
  });
});
