import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readModelKeys, streams } from '@honeylend/contracts';
import { expireApprovals, handleCommand, loadState, loanDecider } from '@honeylend/command-api';
import { startTestSystem, type TestSystem } from '../testing/testSystem.js';
import { disburse, registerBorrower } from '../testing/borrowers.js';
import { borrowerWithPendingLoan, createAdmin, pendingWithdrawal, superadminToken, type TestAdmin } from '../testing/admins.js';
import { approvedBySecondAdmin, setApprovalSettings } from '../testing/approvals.js';

/**
 * Four eyes on money (design §11, issue 17 item 1) against the real API: a PostgreSQL event store
 * (its own schema), the projections and Redis. The clock the API and the expiry job read is
 * injected, so 24 hours pass in a line.
 */
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const schema = `t_${randomUUID().replaceAll('-', '')}`;
let clockOffsetMs = 0;
const now = () => new Date(Date.now() + clockOffsetMs);
let system: TestSystem;
let main: string;
let officer: TestAdmin;
let colleague: TestAdmin;
let auditor: TestAdmin;

beforeAll(async () => {
  system = await startTestSystem({ eventStoreUrl: `${DATABASE_URL}?schema=${schema}`, now });
  main = await superadminToken(system);
  officer = await createAdmin(system, main);
  colleague = await createAdmin(system, main);
  auditor = await createAdmin(system, main, 'auditor');
}, 60_000);
afterAll(async () => {
  await system?.stop();
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await client.end();
});

const balanceOf = async (memberId: string) => (await system.request('GET', `/api/admin/users/${memberId}`, { token: main })).body.balance as number;
const eventTypes = async (stream: string) => (await system.store.readStream(stream)).map((event) => event.type);
const adjust = (token: string, memberId: string, amount: number, reason = 'Refund of a double charge') => system.request('POST', `/api/admin/users/${memberId}/balance-adjustments`, { token, body: { amount, reason } });

describe('four eyes on money: a balance adjustment', () => {
  it('is only requested (202, the balance does not move) until a different admin approves it; then it runs once', async () => {
    const borrower = await registerBorrower(system, 'Rosario Dizon');
    const requested = await adjust(officer.token, borrower.id, 2_500);
    expect(requested.status).toBe(202);
    expect(requested.body).toEqual({ approvalId: expect.any(String), status: 'awaiting_approval' });
    const { approvalId } = requested.body;
    expect(await balanceOf(borrower.id)).toBe(0);
    expect(await eventTypes(streams.member(borrower.id))).not.toContain('BalanceAdjusted');

    const pending = await system.request('GET', '/api/admin/approvals?status=pending', { token: colleague.token });
    expect(pending.status).toBe(200);
    const row = pending.body.items.find((item: { id: string }) => item.id === approvalId);
    expect(row).toMatchObject({ kind: 'balance_adjustment', amount: 2_500, memberName: 'Rosario Dizon', maker: { id: officer.id }, reason: 'Refund of a double charge', status: 'pending' });

    // The maker cannot approve their own request.
    const own = await system.request('POST', `/api/admin/approvals/${approvalId}/approve`, { token: officer.token });
    expect(own.status).toBe(403);
    expect(own.body.code).toBe('OWN_APPROVAL_REQUEST');
    expect(await balanceOf(borrower.id)).toBe(0);

    const approved = await system.request('POST', `/api/admin/approvals/${approvalId}/approve`, { token: colleague.token });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ status: 'approved', decidedBy: { id: colleague.id }, execution: { outcome: 'done' } });
    expect(await balanceOf(borrower.id)).toBe(2_500);
    expect(await eventTypes(streams.approval(approvalId))).toEqual(['ApprovalRequested', 'ApprovalGranted', 'ApprovalExecuted']);
    const adjustments = (await system.store.readStream(streams.member(borrower.id))).filter((event) => event.type === 'BalanceAdjusted');
    expect(adjustments.map((event) => event.data)).toEqual([expect.objectContaining({ adjustmentId: approvalId, amountCentavos: 250_000 })]);
    // The money's event names the approving admin and the approval as its cause.
    expect(adjustments[0].metadata).toMatchObject({ actorId: colleague.id });

    const again = await system.request('POST', `/api/admin/approvals/${approvalId}/approve`, { token: main });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('APPROVAL_ALREADY_DECIDED');
  });

  it("refuses the main admin approving the main admin's own request", async () => {
    const borrower = await registerBorrower(system, 'Imelda Cruz');
    const requested = await adjust(main, borrower.id, 100);
    expect(requested.status).toBe(202);
    const own = await system.request('POST', `/api/admin/approvals/${requested.body.approvalId}/approve`, { token: main });
    expect(own.status).toBe(403);
    expect(own.body.code).toBe('OWN_APPROVAL_REQUEST');
    expect(await balanceOf(borrower.id)).toBe(0);
  });

  it('executes exactly once when two admins approve at the same moment (the event store settles it by expected revision)', async () => {
    for (let round = 0; round < 5; round++) {
      const borrower = await registerBorrower(system, `Race ${round}`);
      const requested = await adjust(officer.token, borrower.id, 1_000);
      expect(requested.status).toBe(202);
      const path = `/api/admin/approvals/${requested.body.approvalId}/approve`;
      const answers = await Promise.all([system.request('POST', path, { token: colleague.token }), system.request('POST', path, { token: main })]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
      expect(answers.find((answer) => answer.status === 409)!.body.code).toBe('APPROVAL_ALREADY_DECIDED');
      expect((await eventTypes(streams.member(borrower.id))).filter((type) => type === 'BalanceAdjusted')).toHaveLength(1);
      expect((await eventTypes(streams.approval(requested.body.approvalId))).filter((type) => type === 'ApprovalGranted')).toHaveLength(1);
      expect(await balanceOf(borrower.id)).toBe(1_000);
    }
  });

  it('rejected with a reason, it never runs', async () => {
    const borrower = await registerBorrower(system, 'Lorna Bautista');
    const requested = await adjust(officer.token, borrower.id, 5_000);
    const noReason = await system.request('POST', `/api/admin/approvals/${requested.body.approvalId}/reject`, { token: colleague.token, body: {} });
    expect(noReason.status).toBe(400);
    const rejected = await system.request('POST', `/api/admin/approvals/${requested.body.approvalId}/reject`, { token: colleague.token, body: { reason: 'No ticket for this refund' } });
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({ status: 'rejected', rejectionReason: 'No ticket for this refund', decidedBy: { id: colleague.id }, execution: null });
    const late = await system.request('POST', `/api/admin/approvals/${requested.body.approvalId}/approve`, { token: main });
    expect(late.status).toBe(409);
    expect(await balanceOf(borrower.id)).toBe(0);
  });

  it('expires after 24 hours and never runs: approving it then is refused, and the hourly job records the expiry', async () => {
    const borrower = await registerBorrower(system, 'Teodoro Lim');
    const requested = await adjust(officer.token, borrower.id, 750);
    const { approvalId } = requested.body;
    clockOffsetMs += 24 * 3600_000 + 1_000;
    try {
      const late = await system.request('POST', `/api/admin/approvals/${approvalId}/approve`, { token: colleague.token });
      expect(late.status).toBe(409);
      expect(late.body.code).toBe('APPROVAL_EXPIRED');
      const expired = await expireApprovals({ store: system.store, redis: system.redis, keys: readModelKeys(system.keyPrefix) }, now());
      expect(expired).toBeGreaterThanOrEqual(1);
      expect(await eventTypes(streams.approval(approvalId))).toEqual(['ApprovalRequested', 'ApprovalExpired']);
      await system.api.deps.progress.waitFor(await system.store.headPosition(), 5_000);
      const list = await system.request('GET', '/api/admin/approvals?status=expired', { token: colleague.token });
      expect(list.body.items.map((item: { id: string }) => item.id)).toContain(approvalId);
      expect(await balanceOf(borrower.id)).toBe(0);
      expect(await eventTypes(streams.member(borrower.id))).not.toContain('BalanceAdjusted');
    } finally {
      clockOffsetMs = 0;
    }
  });

  it('a grant whose command never ran (the API stopped between the two) is carried out when a different admin approves again a minute later, once', async () => {
    const borrower = await registerBorrower(system, 'Ramon Aquino');
    const requested = await adjust(officer.token, borrower.id, 1_200);
    const { approvalId } = requested.body;
    // The grant as the approve route appends it, and then nothing: the process stopped before the command.
    const stream = streams.approval(approvalId);
    const before = await system.store.readStream(stream);
    await system.store.append(stream, [{ id: randomUUID(), type: 'ApprovalGranted', data: { approvalId, checkerId: colleague.id, grantedAt: now().toISOString() } }], { expectedRevision: before.length - 1 });
    await system.api.deps.progress.waitFor(await system.store.headPosition(), 5_000);
    const stillRunning = await system.request('POST', `/api/admin/approvals/${approvalId}/approve`, { token: main });
    expect(stillRunning.status).toBe(409);
    expect(stillRunning.body.code).toBe('APPROVAL_ALREADY_DECIDED');
    expect(await balanceOf(borrower.id)).toBe(0);
    clockOffsetMs += 61_000;
    try {
      const byMaker = await system.request('POST', `/api/admin/approvals/${approvalId}/approve`, { token: officer.token });
      expect(byMaker.status).toBe(403);
      expect(await balanceOf(borrower.id)).toBe(0);
      const [resumed, raced] = await Promise.all([
        system.request('POST', `/api/admin/approvals/${approvalId}/approve`, { token: main }),
        system.request('POST', `/api/admin/approvals/${approvalId}/approve`, { token: colleague.token }),
      ]);
      expect([resumed.status, raced.status].filter((status) => status === 200).length).toBeGreaterThanOrEqual(1);
      expect(await balanceOf(borrower.id)).toBe(1_200);
      const memberEvents = await system.store.readStream(streams.member(borrower.id));
      expect(memberEvents.filter((event) => event.type === 'BalanceAdjusted')).toHaveLength(1);
      expect((await eventTypes(stream)).filter((type) => type === 'ApprovalExecuted')).toHaveLength(1);
      const again = await system.request('POST', `/api/admin/approvals/${approvalId}/approve`, { token: colleague.token });
      expect(again.status).toBe(409);
    } finally {
      clockOffsetMs = 0;
    }
  });

  it('a debit the balance does not cover is refused at once; one it no longer covers at approval is recorded as refused, and moves nothing', async () => {
    const borrower = await registerBorrower(system, 'Nenita Ramos');
    const tooMuch = await adjust(officer.token, borrower.id, -100, 'Paid out in cash at the branch');
    expect(tooMuch.status).toBe(409);
    expect(tooMuch.body.code).toBe('BALANCE_BELOW_ZERO');
    await disburse(system, borrower, 100_00);
    const first = await adjust(officer.token, borrower.id, -100, 'Paid out in cash at the branch');
    const second = await adjust(officer.token, borrower.id, -60, 'Paid out in cash again');
    expect([first.status, second.status]).toEqual([202, 202]);
    await approvedBySecondAdmin(system, second, colleague.token);
    expect(await balanceOf(borrower.id)).toBe(40);
    const approved = await system.request('POST', `/api/admin/approvals/${first.body.approvalId}/approve`, { token: colleague.token });
    expect(approved.status).toBe(200);
    expect(approved.body.execution).toMatchObject({ outcome: 'refused', message: expect.stringContaining('below zero') });
    expect(await balanceOf(borrower.id)).toBe(40);
  });

  it('the auditor reads the approvals and can decide none', async () => {
    const borrower = await registerBorrower(system, 'Audit Target');
    const requested = await adjust(officer.token, borrower.id, 300);
    const read = await system.request('GET', '/api/admin/approvals', { token: auditor.token });
    expect(read.status).toBe(200);
    // The member's name is masked for an auditor, as in every staff read.
    expect(read.body.items.find((item: { id: string }) => item.id === requested.body.approvalId)).toMatchObject({ memberName: 'A.', summary: expect.stringContaining("A.'s wallet") });
    const tried = await system.request('POST', `/api/admin/approvals/${requested.body.approvalId}/approve`, { token: auditor.token });
    expect(tried.status).toBe(403);
    expect(await balanceOf(borrower.id)).toBe(0);
  });
});

describe('four eyes on money: a closed account (RA 10173)', () => {
  it("masks the member's name in the requests naming them once they close their account", async () => {
    const borrower = await registerBorrower(system, 'Leonora Villanueva');
    const requested = await adjust(officer.token, borrower.id, 50);
    const rejected = await system.request('POST', `/api/admin/approvals/${requested.body.approvalId}/reject`, { token: colleague.token, body: { reason: 'Not needed after all' } });
    expect(rejected.body.memberName).toBe('Leonora Villanueva');
    const closed = await system.request('POST', '/api/user/closure-request', { token: borrower.token, body: { reason: 'I no longer need the app' } });
    expect(closed.status, JSON.stringify(closed.body)).toBeLessThan(300);
    await system.api.deps.progress.waitFor(await system.store.headPosition(), 5_000);
    const list = await system.request('GET', '/api/admin/approvals?status=rejected&pageSize=100', { token: colleague.token });
    const row = list.body.items.find((item: { id: string }) => item.id === requested.body.approvalId);
    expect(row.memberName).toBe('L.');
    expect(JSON.stringify(row)).not.toContain('Villanueva');
  });
});

describe('four eyes on money: a withdrawal completion from the threshold', () => {
  it('stays pending (the money held) until a second admin approves; below the threshold it completes at once', async () => {
    const borrower = await registerBorrower(system, 'Wilfredo Santos');
    await disburse(system, borrower, 100_000_00);
    const codes: string[] = [];
    const large = await pendingWithdrawal(system, borrower, 60_000, codes);
    const requested = await system.request('PUT', `/api/admin/withdrawals/${large.id}`, { token: officer.token, body: { status: 'completed', payoutReference: 'IB-20261125-001' } });
    expect(requested.status).toBe(202);
    expect(requested.body.status).toBe('awaiting_approval');
    const held = await system.request('GET', `/api/admin/withdrawals/${large.id}`, { token: officer.token });
    expect(held.body.status).toBe('pending');
    expect(await balanceOf(borrower.id)).toBe(40_000);

    const approved = await approvedBySecondAdmin(system, requested, colleague.token);
    expect(approved.body.execution.outcome).toBe('done');
    const done = await system.request('GET', `/api/admin/withdrawals/${large.id}`, { token: officer.token });
    expect(done.body.status).toBe('completed');
    expect(done.body.payoutReference).toBe('IB-20261125-001');

    const small = await pendingWithdrawal(system, borrower, 10_000, codes);
    const direct = await system.request('PUT', `/api/admin/withdrawals/${small.id}`, { token: officer.token, body: { status: 'completed' } });
    expect(direct.status).toBe(200);
    expect(direct.body.status).toBe('completed');
  });
});

describe('four eyes on money: a loan approval from the threshold', () => {
  it('stays pending (no money, no acceptance asked) until a second admin approves; below the threshold it is approved at once', async () => {
    const large = await borrowerWithPendingLoan(system, 'Bonifacio Reyes', 600_000);
    const requested = await system.request('PUT', `/api/admin/loans/${large.loan.id}`, { token: officer.token, body: { status: 'approved', notify: true } });
    expect(requested.status).toBe(202);
    expect((await system.request('GET', `/api/admin/loans/${large.loan.id}`, { token: officer.token })).body.status).toBe('pending');
    const pending = await system.request('GET', '/api/admin/approvals?status=pending', { token: colleague.token });
    expect(pending.body.items.find((item: { id: string }) => item.id === requested.body.approvalId)).toMatchObject({ kind: 'loan_approval', amount: 600_000 });
    await approvedBySecondAdmin(system, requested, colleague.token);
    const approved = await system.request('GET', `/api/admin/loans/${large.loan.id}`, { token: officer.token });
    expect(approved.body.status).toBe('approved');
    // The approval's own next step follows: the borrower is asked to accept the Disclosure Statement.
    expect(approved.body.acceptance.awaiting).toBe(true);

    const small = await borrowerWithPendingLoan(system, 'Gregoria de Jesus', 100_000);
    const direct = await system.request('PUT', `/api/admin/loans/${small.loan.id}`, { token: officer.token, body: { status: 'approved' } });
    expect(direct.status).toBe(200);
    expect(direct.body.status).toBe('approved');
  });
});

describe('four eyes on a loan approval, decided on the stream and bound to its terms (PostgreSQL, real concurrency)', () => {
  it('one admin sending an edit to ₱4,000,000 and an approval at the same moment, 50 times, never approves ₱500,000 or more alone', async () => {
    const loans: string[] = [];
    // Sign-ups one at a time (the registration lane answers BUSY to a burst); the race is in the pairs below.
    for (let i = 0; i < 50; i++) loans.push((await borrowerWithPendingLoan(system, `Race Borrower ${i}`, 100_000)).loan.id as string);
    const answers = await Promise.all(
      loans.map((loanId) =>
        Promise.all([
          system.request('PUT', `/api/admin/loans/${loanId}`, { token: officer.token, body: { amount: 4_000_000, termMonths: 60 } }),
          system.request('PUT', `/api/admin/loans/${loanId}`, { token: officer.token, body: { status: 'approved' } }),
        ]),
      ),
    );
    for (const [edit, approval] of answers) {
      expect([200, 409]).toContain(edit.status);
      expect([200, 202, 409]).toContain(approval.status);
    }
    let alone = 0;
    let awaiting = 0;
    for (const loanId of loans) {
      const approvedEvents = (await system.store.readStream(streams.loan(loanId))).filter((event) => event.type === 'LoanStatusChanged' && (event.data as { to: string }).to === 'approved');
      const { state } = await loadState(system.store, streams.loan(loanId), loanDecider);
      if (!state.exists) throw new Error(`loan ${loanId} is gone`);
      if (approvedEvents.length > 0 && state.amountCentavos >= 50_000_000) alone += 1;
      if (approvedEvents.length === 0 && state.amountCentavos >= 50_000_000) awaiting += 1;
    }
    expect(alone).toBe(0);
    // Every loan the edit reached before the approval now waits for a second admin instead.
    expect(awaiting).toBeGreaterThan(0);
  }, 300_000);

  it('while a loan approval waits for a second admin its terms cannot change (409 APPROVAL_PENDING), and a second request for it is refused', async () => {
    const { loan } = await borrowerWithPendingLoan(system, 'Locked Borrower', 500_000);
    const requested = await system.request('PUT', `/api/admin/loans/${loan.id}`, { token: officer.token, body: { status: 'approved' } });
    expect(requested.status).toBe(202);
    const drift = await system.request('PUT', `/api/admin/loans/${loan.id}`, { token: officer.token, body: { amount: 4_000_000, termMonths: 60 } });
    expect(drift).toMatchObject({ status: 409, body: { code: 'APPROVAL_PENDING', details: { approvalId: requested.body.approvalId } } });
    const again = await system.request('PUT', `/api/admin/loans/${loan.id}`, { token: colleague.token, body: { status: 'approved' } });
    expect(again).toMatchObject({ status: 409, body: { code: 'APPROVAL_ALREADY_PENDING', details: { approvalId: requested.body.approvalId } } });
    expect(await eventTypes(streams.loan(loan.id))).toEqual(['LoanApplied']);
    // Once decided, the terms are the maker's to change again.
    expect((await system.request('POST', `/api/admin/approvals/${requested.body.approvalId}/reject`, { token: colleague.token, body: { reason: 'Ask for less' } })).status).toBe(200);
    const edited = await system.request('PUT', `/api/admin/loans/${loan.id}`, { token: officer.token, body: { amount: 400_000 } });
    expect(edited).toMatchObject({ status: 200, body: { amount: 400_000 } });
  });

  it('a grant approves the terms it was asked for: terms that drifted past the lock (an edit the read model had not shown) are refused (APPROVAL_TERMS_CHANGED) and the loan stays pending', async () => {
    const { loan } = await borrowerWithPendingLoan(system, 'Drift Borrower', 500_000);
    const requested = await system.request('PUT', `/api/admin/loans/${loan.id}`, { token: officer.token, body: { status: 'approved' } });
    expect(requested.status).toBe(202);
    const recorded = (await system.store.readStream(streams.approval(requested.body.approvalId)))[0].data as { command: Record<string, unknown> };
    expect(recorded.command).toMatchObject({ kind: 'loan_approval', amountCentavos: 50_000_000, termMonths: 12, monthlyRateBps: expect.any(Number) });
    // The edit goes straight to the loan's stream, as one racing the request would before the lock could see the request.
    await handleCommand(
      system.store,
      streams.loan(loan.id),
      loanDecider,
      { type: 'ChangeLoanTerms', loanId: loan.id, amountCentavos: 400_000_000, termMonths: 60, now: new Date().toISOString() },
      { actorId: officer.id },
    );
    const granted = await system.request('POST', `/api/admin/approvals/${requested.body.approvalId}/approve`, { token: colleague.token });
    expect(granted.status).toBe(200);
    expect(granted.body.execution).toEqual({ outcome: 'refused', message: "The loan's terms changed after this approval was requested; ask for a new approval of the terms it has now." });
    expect(await eventTypes(streams.loan(loan.id))).not.toContain('LoanStatusChanged');
    const after = await system.request('GET', `/api/admin/loans/${loan.id}`, { token: officer.token });
    expect(after.body.status).toBe('pending');
  });
});

describe('four eyes on money: the settings', () => {
  it('out of the box every command needs a second admin; only the main admin changes that (an event), and then an adjustment runs at once', async () => {
    const defaults = await system.request('GET', '/api/admin/settings/approvals', { token: officer.token });
    expect(defaults.body).toEqual({
      required: { balance_adjustment: true, withdrawal_completion: true, loan_approval: true, penalty_waiver: true, repayment_reversal: true, phone_change: true },
      withdrawalThreshold: 50_000,
      loanApprovalThreshold: 500_000,
    });
    const byOfficer = await system.request('PUT', '/api/admin/settings/approvals', { token: officer.token, body: { ...defaults.body, required: { ...defaults.body.required, balance_adjustment: false } } });
    expect(byOfficer.status).toBe(403);
    const badThreshold = await system.request('PUT', '/api/admin/settings/approvals', { token: main, body: { ...defaults.body, withdrawalThreshold: -1 } });
    expect(badThreshold.status).toBe(400);

    const changed = await setApprovalSettings(system, main, { required: { balance_adjustment: false } });
    expect(changed.required.balance_adjustment).toBe(false);
    expect(await eventTypes(streams.approvalSettings)).toEqual(['ApprovalSettingsChanged']);
    const borrower = await registerBorrower(system, 'Direct Adjustment');
    const direct = await adjust(officer.token, borrower.id, 400);
    expect(direct.status).toBe(201);
    expect(await balanceOf(borrower.id)).toBe(400);
    await setApprovalSettings(system, main, { required: { balance_adjustment: true } });
    expect((await adjust(officer.token, borrower.id, 400)).status).toBe(202);
  });
});
