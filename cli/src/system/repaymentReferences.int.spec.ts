import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streams } from '@honeylend/contracts';
import { superadminToken } from '../testing/admins.js';
import { activeLoan, providerPayment, type ActiveLoan } from '../testing/servicing.js';
import { startTestSystem, type TestSystem } from '../testing/testSystem.js';

/**
 * A payment's reference is how the same money reported twice is told apart from two payments: it is
 * compared as written by people and providers alike (case, spaces and separators do not count), and a
 * reference this loan already has is refused on any channel unless an admin says why it is another payment.
 */
let system: TestSystem;
let admin: string;
let loan: ActiveLoan;

beforeAll(async () => {
  system = await startTestSystem();
  admin = await superadminToken(system);
  loan = await activeLoan(system, admin, { fullName: 'Teresita Villanueva' });
}, 120_000);
afterAll(() => system?.stop());

const record = (body: Record<string, unknown>) => system.request('POST', `/api/admin/loans/${loan.loanId}/repayments`, { token: admin, body: { valueDate: loan.dueDates[0], ...body } });
const receivedEvents = async () => (await system.store.readStream(streams.loan(loan.loanId))).filter((event) => event.type === 'RepaymentReceived').map((event) => event.data);

describe('repayment references', () => {
  it('credit one payment once however its reference is written, refuse it on another channel or for another amount, and record it again only with a reason', async () => {
    const today = (await system.request('GET', '/api/dev/business-date', { token: admin })).body.date as string;
    const viaProvider = await providerPayment(system, { reference: 'GC-777', loanNumber: loan.loanNumber, amount: 1_000, paidAt: `${today}T09:00:00+08:00`, channel: 'gcash' });
    expect(viaProvider.status).toBe(201);

    // The same payment typed by an admin: the first receipt, nothing credited twice.
    const typed = await record({ amount: 1_000, channel: 'gcash', reference: 'gc-777', valueDate: today });
    expect(typed.status).toBe(201);
    expect(typed.body.id).toBe(viaProvider.body.id);

    const message = `Reference GC-777 is already on this loan: receipt ${viaProvider.body.receiptNumber as string}, ₱1,000.00 by GCash. If this is another payment, record it with a reason.`;
    const otherChannel = await record({ amount: 1_000, channel: 'maya', reference: 'GC 777', valueDate: today });
    expect(otherChannel).toMatchObject({ status: 409, body: { code: 'REFERENCE_ALREADY_RECORDED', message } });
    const otherAmount = await record({ amount: 1_500, channel: 'gcash', reference: 'GC-777', valueDate: today });
    expect(otherAmount).toMatchObject({ status: 409, body: { code: 'REFERENCE_ALREADY_RECORDED' } });
    const providerOnBank = await providerPayment(system, { reference: 'gc.777', loanNumber: loan.loanNumber, amount: 1_000, paidAt: `${today}T10:00:00+08:00`, channel: 'bank' });
    expect(providerOnBank).toMatchObject({ status: 409, body: { code: 'REFERENCE_ALREADY_RECORDED' } });
    expect(await receivedEvents()).toHaveLength(1);

    const tooShort = await record({ amount: 1_500, channel: 'gcash', reference: 'GC-777', valueDate: today, duplicateReferenceReason: 'ok' });
    expect(tooShort).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED' } });
    const confirmed = await record({ amount: 1_500, channel: 'gcash', reference: 'GC-777', valueDate: today, duplicateReferenceReason: 'GCash reused the reference for a second transfer' });
    expect(confirmed.status).toBe(201);
    expect(confirmed.body.id).not.toBe(viaProvider.body.id);
    const received = await receivedEvents();
    expect(received).toHaveLength(2);
    expect(received[1]).toMatchObject({ amountCentavos: 150_000, reference: 'GC-777', duplicateReferenceReason: 'GCash reused the reference for a second transfer' });
  });
});
