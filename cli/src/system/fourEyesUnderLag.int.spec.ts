import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, streams } from '@honeylend/contracts';
import { createAdmin, superadminToken, type TestAdmin } from '../testing/admins.js';
import { activeLoan, moveBusinessDate, recordRepayment, type ActiveLoan } from '../testing/servicing.js';
import { startTestSystem, type TestSystem } from '../testing/testSystem.js';

/**
 * Four eyes on a reversal and on a waiver is judged on the loan's stream (design §11), so an admin
 * alone cannot slip either through while the read models lag: here the projections are stopped
 * outright, the longest lag there is, and the read models never see what follows.
 */
let system: TestSystem;
let main: string;
let officer: TestAdmin;
let reversalLoan: ActiveLoan;
let waiverLoan: ActiveLoan;
let chequeId: string;

const eventsOf = async (loanId: string, type: string) => (await system.store.readStream(streams.loan(loanId))).filter((event) => event.type === type);

beforeAll(async () => {
  system = await startTestSystem();
  main = await superadminToken(system);
  officer = await createAdmin(system, main);
  reversalLoan = await activeLoan(system, main, { fullName: 'Ramon Dizon' });
  waiverLoan = await activeLoan(system, main, { fullName: 'Liza Manalo' });
  const due = waiverLoan.dueDates[0];
  await moveBusinessDate(system, main, due);
  chequeId = (await recordRepayment(system, main, waiverLoan, { amount: 13_000, channel: 'bank', reference: 'CHQ-LAG-1', valueDate: due })).id as string;
  // Twenty days on: were the cheque reversed, its instalment would carry late charges.
  await moveBusinessDate(system, main, addDays(due, 20));
  await system.stopProjections();
}, 120_000);
afterAll(() => system?.stop());

describe('four eyes on servicing while the read models lag', () => {
  it('a reversal of a repayment no read model has seen yet is requested for a second admin, bound to its amount, and nothing is reversed', async () => {
    const recorded = await system.request('POST', `/api/admin/loans/${reversalLoan.loanId}/repayments`, {
      token: main,
      body: { amount: 1_000, channel: 'bank', reference: 'BDO-LAG-2', valueDate: reversalLoan.dueDates[0] },
    });
    expect(recorded.status).toBe(201);
    const repaymentId = recorded.body.id as string;

    const reversal = await system.request('POST', `/api/admin/loans/${reversalLoan.loanId}/repayments/${repaymentId}/reversal`, { token: officer.token, body: { reason: 'Cheque bounced' } });
    expect(reversal.status).toBe(202);
    expect(reversal.body).toMatchObject({ status: 'awaiting_approval', approvalId: expect.any(String) });
    expect(await eventsOf(reversalLoan.loanId, 'RepaymentReversed')).toEqual([]);
    const [requested] = await system.store.readStream(streams.approval(reversal.body.approvalId as string));
    expect(requested.data).toMatchObject({ command: { kind: 'repayment_reversal', loanId: reversalLoan.loanId, repaymentId, amountCentavos: 100_000 } });
  });

  it('a waiver of late charges only the stream holds (a reversal the read models never saw) is requested for a second admin, and nothing is waived', async () => {
    // Reversals alone from here (the main admin's settings, decided on their stream); waivers still need a second admin.
    const settings = await system.request('GET', '/api/admin/settings/approvals', { token: main });
    const changed = await system.request('PUT', '/api/admin/settings/approvals', { token: main, body: { ...settings.body, required: { ...settings.body.required, repayment_reversal: false } } });
    expect([200, 202]).toContain(changed.status);
    const reversal = await system.request('POST', `/api/admin/loans/${waiverLoan.loanId}/repayments/${chequeId}/reversal`, { token: officer.token, body: { reason: 'Cheque bounced' } });
    expect([200, 202]).toContain(reversal.status);
    expect(reversal.body.approvalId).toBeUndefined();
    expect(await eventsOf(waiverLoan.loanId, 'RepaymentReversed')).toHaveLength(1);

    const waiver = await system.request('POST', `/api/admin/loans/${waiverLoan.loanId}/penalty-waivers`, { token: officer.token, body: { amount: 10, reason: 'Bank error on our side' } });
    expect(waiver.status).toBe(202);
    expect(waiver.body).toMatchObject({ status: 'awaiting_approval', approvalId: expect.any(String) });
    expect(await eventsOf(waiverLoan.loanId, 'PenaltyWaived')).toEqual([]);
  });
});
