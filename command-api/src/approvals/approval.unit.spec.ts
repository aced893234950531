import { describe, expect, it } from 'vitest';
import { DEFAULT_APPROVAL_SETTINGS, needsApproval, type ApprovalCommand } from '@honeylend/contracts';
import { given } from '../platform/commands/testing/givenWhenThen.js';
import { approvalDecider, approvalSettingsDecider, type ApprovalEvent } from './approval.js';

const approvalId = '6f1c2d3e-4b5a-4c6d-8e7f-8091a2b3c4d5';
const memberId = '0b9a8c7d-6e5f-4a3b-9c2d-1e0f9a8b7c6d';
const maker = 'a1a1a1a1-b2b2-4c3c-8d4d-e5e5e5e5e5e5';
const checker = 'c3c3c3c3-d4d4-4e5e-9f6f-a7a7a7a7a7a7';
const adjustment: ApprovalCommand = { kind: 'balance_adjustment', memberId, amountCentavos: 250_000, reason: 'Refund of a double charge' };
const at = '2026-11-25T01:00:00.000Z';
const requested: ApprovalEvent = {
  type: 'ApprovalRequested',
  data: { approvalId, command: adjustment, makerId: maker, reason: 'Refund of a double charge', requestedAt: at, expiresAt: '2026-11-26T01:00:00.000Z' },
};
const granted: ApprovalEvent = { type: 'ApprovalGranted', data: { approvalId, checkerId: checker, grantedAt: '2026-11-25T02:00:00.000Z' } };

describe('four eyes on money: an approval request (design §11)', () => {
  it('when an admin asks for a balance adjustment, then the request is recorded with its full body, the maker and the reason, expiring in 24 hours', () => {
    given(approvalDecider, []).when({ type: 'RequestApproval', approvalId, command: adjustment, makerId: maker, reason: 'Refund of a double charge', now: at }).then([requested]);
    // The same request again (a retry) records nothing more.
    given(approvalDecider, [requested]).when({ type: 'RequestApproval', approvalId, command: adjustment, makerId: maker, reason: 'Refund of a double charge', now: at }).then([]);
  });

  it('refuses the maker approving their own request, whoever they are (the main admin included)', () => {
    given(approvalDecider, [requested]).when({ type: 'GrantApproval', approvalId, checkerId: maker, now: '2026-11-25T02:00:00.000Z' }).thenThrows('OWN_APPROVAL_REQUEST');
  });

  it('when a different admin approves, then it is granted once: a second approval (two admins at the same moment, the loser decides again) is refused', () => {
    given(approvalDecider, [requested]).when({ type: 'GrantApproval', approvalId, checkerId: checker, now: '2026-11-25T02:00:00.000Z' }).then([granted]);
    given(approvalDecider, [requested, granted]).when({ type: 'GrantApproval', approvalId, checkerId: 'e5e5e5e5-f6f6-4a7a-8b8b-c9c9c9c9c9c9', now: '2026-11-25T02:00:00.001Z' }).thenThrows('APPROVAL_ALREADY_DECIDED');
  });

  it('given a grant whose execution was never recorded, a different admin approving a minute later carries it out (nothing more is recorded before the command); sooner, or the maker, is refused', () => {
    const other = 'e5e5e5e5-f6f6-4a7a-8b8b-c9c9c9c9c9c9';
    given(approvalDecider, [requested, granted]).when({ type: 'GrantApproval', approvalId, checkerId: other, now: '2026-11-25T02:00:59.999Z' }).thenThrows('APPROVAL_ALREADY_DECIDED');
    given(approvalDecider, [requested, granted]).when({ type: 'GrantApproval', approvalId, checkerId: other, now: '2026-11-25T02:01:00.000Z' }).then([]);
    given(approvalDecider, [requested, granted]).when({ type: 'GrantApproval', approvalId, checkerId: maker, now: '2026-11-25T02:05:00.000Z' }).thenThrows('OWN_APPROVAL_REQUEST');
    const executed: ApprovalEvent = { type: 'ApprovalExecuted', data: { approvalId, outcome: 'done', code: null, message: null, executedAt: '2026-11-25T02:00:01.000Z' } };
    given(approvalDecider, [requested, granted, executed]).when({ type: 'GrantApproval', approvalId, checkerId: other, now: '2026-11-25T03:00:00.000Z' }).thenThrows('APPROVAL_ALREADY_DECIDED');
  });

  it('records the execution once, and only after a grant', () => {
    const execution = { type: 'RecordExecution' as const, approvalId, outcome: 'done' as const, code: null, message: null, now: '2026-11-25T02:00:01.000Z' };
    given(approvalDecider, [requested]).when(execution).then([]);
    given(approvalDecider, [requested, granted])
      .when(execution)
      .then([{ type: 'ApprovalExecuted', data: { approvalId, outcome: 'done', code: null, message: null, executedAt: '2026-11-25T02:00:01.000Z' } }]);
    given(approvalDecider, [requested, granted, { type: 'ApprovalExecuted', data: { approvalId, outcome: 'done', code: null, message: null, executedAt: '2026-11-25T02:00:01.000Z' } }])
      .when(execution)
      .then([]);
  });

  it('expires after 24 hours and then never executes: approving or rejecting it is refused, even before the expiry job ran', () => {
    given(approvalDecider, [requested]).when({ type: 'ExpireApproval', approvalId, now: '2026-11-26T00:59:59.999Z' }).then([]);
    const expired: ApprovalEvent = { type: 'ApprovalExpired', data: { approvalId, expiredAt: '2026-11-26T01:00:00.000Z' } };
    given(approvalDecider, [requested]).when({ type: 'ExpireApproval', approvalId, now: '2026-11-26T01:00:00.000Z' }).then([expired]);
    given(approvalDecider, [requested]).when({ type: 'GrantApproval', approvalId, checkerId: checker, now: '2026-11-26T01:00:00.000Z' }).thenThrows('APPROVAL_EXPIRED');
    given(approvalDecider, [requested, expired]).when({ type: 'GrantApproval', approvalId, checkerId: checker, now: '2026-11-26T02:00:00.000Z' }).thenThrows('APPROVAL_ALREADY_DECIDED');
    given(approvalDecider, [requested, expired]).when({ type: 'RecordExecution', approvalId, outcome: 'done', code: null, message: null, now: '2026-11-26T02:00:00.000Z' }).then([]);
    // An approved one is no longer pending: the expiry job leaves it alone.
    given(approvalDecider, [requested, granted]).when({ type: 'ExpireApproval', approvalId, now: '2026-11-27T00:00:00.000Z' }).then([]);
  });

  it('when rejected with a reason, then it never runs; a rejected request cannot be approved', () => {
    const rejected: ApprovalEvent = { type: 'ApprovalRejected', data: { approvalId, rejectedBy: checker, reason: 'No ticket for this refund', rejectedAt: '2026-11-25T03:00:00.000Z' } };
    given(approvalDecider, [requested]).when({ type: 'RejectApproval', approvalId, rejectedBy: checker, reason: 'No ticket for this refund', now: '2026-11-25T03:00:00.000Z' }).then([rejected]);
    given(approvalDecider, [requested, rejected]).when({ type: 'GrantApproval', approvalId, checkerId: checker, now: '2026-11-25T04:00:00.000Z' }).thenThrows('APPROVAL_ALREADY_DECIDED');
  });

  it('an unknown request is not found', () => {
    given(approvalDecider, []).when({ type: 'GrantApproval', approvalId, checkerId: checker, now: at }).thenThrows('APPROVAL_NOT_FOUND');
  });
});

describe('which commands need a second admin', () => {
  it('out of the box every kind does; a withdrawal completion from ₱50,000 and a loan approval from ₱500,000', () => {
    expect(needsApproval(DEFAULT_APPROVAL_SETTINGS, adjustment)).toBe(true);
    const completion = (amountCentavos: number): ApprovalCommand => ({
      kind: 'withdrawal_completion',
      memberId,
      withdrawalId: approvalId,
      withdrawalNumber: 'WD-2026-000001',
      amountCentavos,
      processedAt: null,
      payoutReference: null,
    });
    expect(needsApproval(DEFAULT_APPROVAL_SETTINGS, completion(49_999_99))).toBe(false);
    expect(needsApproval(DEFAULT_APPROVAL_SETTINGS, completion(50_000_00))).toBe(true);
    const loan = (amountCentavos: number): ApprovalCommand => ({ kind: 'loan_approval', memberId, loanId: approvalId, loanNumber: 'LN-2026-000001', amountCentavos, message: null, notify: null });
    expect(needsApproval(DEFAULT_APPROVAL_SETTINGS, loan(499_999_99))).toBe(false);
    expect(needsApproval(DEFAULT_APPROVAL_SETTINGS, loan(500_000_00))).toBe(true);
    expect(needsApproval({ ...DEFAULT_APPROVAL_SETTINGS, required: { ...DEFAULT_APPROVAL_SETTINGS.required, balance_adjustment: false } }, adjustment)).toBe(false);
  });

  it('the main admin changes them with an event; the same settings again record nothing', () => {
    const changed = { ...DEFAULT_APPROVAL_SETTINGS, withdrawalThresholdCentavos: 10_000_00 };
    given(approvalSettingsDecider, [])
      .when({ type: 'SetApprovalSettings', settings: changed, now: at })
      .then([{ type: 'ApprovalSettingsChanged', data: { settings: changed, changedAt: at } }]);
    given(approvalSettingsDecider, []).when({ type: 'SetApprovalSettings', settings: DEFAULT_APPROVAL_SETTINGS, now: at }).then([]);
  });
});
