import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streams, type LoanDoc, type MemberDoc } from '@honeylend/contracts';
import { startTestSystem, uniquePhone, type TestSystem } from '../testing/testSystem.js';
import { acceptDisclosure, borrowerWithPendingLoan, createAdmin, pendingWithdrawal, superadminToken } from '../testing/admins.js';
import { approvedBySecondAdmin } from '../testing/approvals.js';
import { parseFeedEntry } from '../../../command-api/src/platform/realtime/changeFeed.js';

/**
 * Done-when of issue 16: for a member and a loan with a long history, the state an auditor is
 * shown as of every revision — folded with the deciders' own evolve — equals what the read model
 * held right after that event. The read model's documents are recorded as the projections wrote
 * them while the history was made: each change-feed entry carries the document and the position
 * of the event that produced it.
 */

let system: TestSystem;
let mainToken: string;
/** A second admin: approves what the main admin's commands leave waiting (four eyes: adjustments, a phone change). */
let checkerToken: string;
beforeAll(async () => {
  system = await startTestSystem();
  mainToken = await superadminToken(system);
  checkerToken = (await createAdmin(system, mainToken)).token;
});
afterAll(() => system?.stop());

async function ok(method: string, path: string, body?: unknown, token = mainToken) {
  const res = await approvedBySecondAdmin(system, await system.request(method, path, { token, body }), checkerToken);
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Every document the projections published for `id` (member.updated / loan.updated), by the position that produced it. */
async function recordedDocs<T>(event: string, id: string): Promise<Map<number, T>> {
  const entries = await system.redis.xrange(`${system.keyPrefix}rm:changes`, '-', '+');
  const docs = new Map<number, T>();
  for (const [streamId, fields] of entries) {
    const entry = parseFeedEntry(streamId, fields);
    if (entry?.event === event && (entry.doc as { id: string }).id === id) docs.set(entry.version, entry.doc as T);
  }
  return docs;
}

/** What the read model held right after the event at `position`: the newest document written at or before it. */
function heldAfter<T>(docs: Map<number, T>, position: number): T | undefined {
  let held: T | undefined;
  for (const [version, doc] of [...docs].sort((a, b) => a[0] - b[0])) if (version <= position) held = doc;
  return held;
}

describe('state as of every revision', () => {
  it('equals the read model right after each event, for a member and a loan with a long history', async () => {
    const { borrower, loan } = await borrowerWithPendingLoan(system, 'Lorna Villanueva', 120_000);
    await ok('PUT', `/api/admin/loans/${loan.id}`, { amount: 150_000, termMonths: 18 });
    await ok('PUT', `/api/admin/loans/${loan.id}`, { status: 'account_issue', message: 'Please upload a clearer selfie.' });
    await ok('PUT', `/api/admin/loans/${loan.id}`, { status: 'pending' });
    await ok('PUT', `/api/admin/loans/${loan.id}`, { status: 'approved' });
    await acceptDisclosure(system, borrower.token, loan.id);
    await ok('PUT', `/api/user/profile`, { address: '45 Mabini Street, Cebu City', referenceName: 'Pedro Villanueva' }, borrower.token);
    const codes: string[] = [];
    const first = await pendingWithdrawal(system, borrower, 20_000, codes);
    await ok('PUT', `/api/admin/withdrawals/${first.id}`, { status: 'completed' });
    const second = await pendingWithdrawal(system, borrower, 5_000, codes);
    await ok('PUT', `/api/admin/withdrawals/${second.id}`, { status: 'rejected', reason: 'Bank details did not match' });
    await ok('POST', `/api/admin/users/${borrower.id}/balance-adjustments`, { amount: 250.5, reason: 'Goodwill credit for the delay' });
    await ok('POST', `/api/admin/users/${borrower.id}/balance-adjustments`, { amount: -100, reason: 'Reversal of a duplicate credit' });
    await ok('PUT', `/api/admin/users/${borrower.id}`, { creditScore: 720 });
    await ok('PUT', `/api/admin/users/${borrower.id}`, { status: 'suspended' });
    await ok('PUT', `/api/admin/users/${borrower.id}`, { status: 'active' });
    await ok('PUT', `/api/admin/users/${borrower.id}`, { phone: uniquePhone(), fullName: 'Lorna V. Santos' });
    await ok('PUT', `/api/admin/loans/${loan.id}`, { status: 'active' });
    await system.api.deps.progress.waitFor(await system.store.headPosition(), 10_000);

    const memberDocs = await recordedDocs<MemberDoc>('member.updated', borrower.id);
    const memberEvents = await system.store.readStream(streams.member(borrower.id));
    expect(memberEvents.length).toBeGreaterThanOrEqual(20);
    for (const event of memberEvents) {
      const held = heldAfter(memberDocs, event.position);
      const asOf = await ok('GET', `/api/audit/streams/${streams.member(borrower.id)}?asOf=${event.revision}`);
      expect(asOf.asOf).toMatchObject({ revision: event.revision, position: event.position });
      if (!held) {
        // Before the projection's first document the member was not registered yet.
        expect(asOf.state.exists, `revision ${event.revision}`).toBe(false);
        continue;
      }
      const { state } = asOf;
      expect(
        {
          status: state.status,
          balanceCentavos: state.balanceCentavos,
          creditScore: state.creditScore,
          phone: state.phone,
          documents: state.documents,
          ...state.profile,
        },
        `member at revision ${event.revision} (${event.type})`,
      ).toEqual({
        status: held.status,
        balanceCentavos: held.balanceCentavos,
        creditScore: held.creditScore,
        phone: held.phone,
        documents: held.documents,
        fullName: held.fullName,
        email: held.email,
        address: held.address,
        countryOfWork: held.countryOfWork,
        monthlySalaryCentavos: held.monthlySalaryCentavos,
        referenceName: held.referenceName,
        referencePhone: held.referencePhone,
        bankName: held.bankName,
        bankAccountNumber: held.bankAccountNumber,
      });
    }

    const loanDocs = await recordedDocs<LoanDoc>('loan.updated', loan.id);
    const loanEvents = await system.store.readStream(streams.loan(loan.id));
    expect(loanEvents.length).toBeGreaterThanOrEqual(6);
    for (const event of loanEvents) {
      const held = heldAfter(loanDocs, event.position)!;
      const { state } = await ok('GET', `/api/audit/streams/${streams.loan(loan.id)}?asOf=${event.revision}`);
      expect(
        { status: state.status, amountCentavos: state.amountCentavos, termMonths: state.termMonths, monthlyRateBps: state.monthlyRateBps, loanNumber: state.loanNumber, memberId: state.memberId },
        `loan at revision ${event.revision} (${event.type})`,
      ).toEqual({ status: held.status, amountCentavos: held.amountCentavos, termMonths: held.termMonths, monthlyRateBps: held.monthlyRateBps, loanNumber: held.loanNumber, memberId: held.memberId });
    }
    // The history really moved: the states differ along the way.
    const statuses = new Set<string>();
    for (const event of loanEvents) statuses.add((await ok('GET', `/api/audit/streams/${streams.loan(loan.id)}?asOf=${event.revision}`)).state.status);
    expect([...statuses]).toEqual(['pending', 'account_issue', 'approved', 'active']);
  });
});
