import { describe, expect, it } from 'vitest';
import { given } from '../platform/commands/testing/givenWhenThen.js';
import { memberDecider } from './decide.js';
import { evolveMember, initialMemberState, type MemberEvent } from './member.js';
import { phoneReservationDecider } from './phoneReservation.js';

const memberId = '5f0c6a52-3d8e-4f57-a7f4-0d6e4c1b9a01';
const loanId = '3b7a1f52-9c4e-4d1a-8f0e-2a6b5c4d3e21';
const withdrawalId = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const challengeId = '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
const adjustmentId = 'aa0c6a52-3d8e-4f57-a7f4-0d6e4c1b9a01';
const now = '2026-11-22T08:00:00.000Z';
const phone = '+639171234567';
const passwordHash = '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNo';

const registered: MemberEvent = {
  type: 'MemberRegistered',
  data: { memberId, phone, fullName: 'Maria Santos', email: null, passwordHash, registeredAt: now, registeredBy: 'self' },
};
const disbursed = (amountCentavos: number, id = loanId): MemberEvent => ({ type: 'LoanDisbursed', data: { memberId, loanId: id, amountCentavos, disbursedAt: now } });
const opened: MemberEvent = { type: 'LoanApplicationOpened', data: { memberId, loanId, openedAt: now } };
const closed: MemberEvent = { type: 'LoanApplicationClosed', data: { memberId, loanId, closing: 'completed', closedAt: now } };
const statusChanged = (from: 'active' | 'pending' | 'suspended', to: 'active' | 'pending' | 'suspended'): MemberEvent => ({
  type: 'MemberStatusChanged',
  data: { memberId, from, to, changedAt: now },
});
const fold = (events: MemberEvent[]) => events.reduce(evolveMember, initialMemberState());

describe("member decider: an admin's edit", () => {
  it('records profile, phone, credit score and status changes, the status last, and only what changed', () => {
    given(memberDecider, [registered])
      .when({
        type: 'AdminUpdateMember',
        memberId,
        changes: { fullName: 'Maria Santos', bankName: 'BPI' },
        phone: '+639181234567',
        creditScore: 720,
        status: 'suspended',
        actor: { id: adjustmentId, role: 'superadmin' },
        now,
      })
      .then([
        { type: 'MemberProfileUpdated', data: { memberId, changes: { bankName: 'BPI' }, updatedAt: now } },
        { type: 'MemberPhoneChanged', data: { memberId, from: phone, to: '+639181234567', changedAt: now, changedBy: adjustmentId } },
        { type: 'WithdrawalsHeld', data: { memberId, reason: 'phone-changed', heldUntil: '2026-11-23T08:00:00.000Z', heldAt: now } },
        { type: 'MemberCreditScoreChanged', data: { memberId, from: 500, to: 720, changedAt: now } },
        statusChanged('active', 'suspended'),
      ]);
    given(memberDecider, [registered]).when({ type: 'AdminUpdateMember', memberId, changes: {}, phone, creditScore: 500, status: 'active', now }).then([]);
  });

  it('edits a suspended member too (the borrower could not), and reactivates them', () => {
    given(memberDecider, [registered, statusChanged('active', 'suspended')])
      .when({ type: 'AdminUpdateMember', memberId, changes: { address: '45 Bonifacio Street, Cebu' }, status: 'active', now })
      .then([{ type: 'MemberProfileUpdated', data: { memberId, changes: { address: '45 Bonifacio Street, Cebu' }, updatedAt: now } }, statusChanged('suspended', 'active')]);
  });

  it('sets only documents uploaded for this member', () => {
    given(memberDecider, [registered])
      .when({ type: 'AdminUpdateMember', memberId, changes: {}, documents: { selfie: challengeId }, now })
      .thenThrows('DOCUMENT_NOT_FOUND');
  });

  it('ends every session on suspension and password reset, not on reactivation', () => {
    const suspended = fold([registered, statusChanged('active', 'suspended')]);
    const reactivated = fold([registered, statusChanged('active', 'suspended'), statusChanged('suspended', 'active')]);
    const reset = fold([registered, { type: 'MemberPasswordReset', data: { memberId, passwordHash, resetAt: now } }]);
    expect(suspended.exists && suspended.tokenVersion).toBe(1);
    expect(reactivated.exists && reactivated.tokenVersion).toBe(1);
    expect(reset.exists && reset.tokenVersion).toBe(1);
  });
});

describe('member decider: balance adjustments', () => {
  it('credits and debits with the reason', () => {
    given(memberDecider, [registered, disbursed(100_000)])
      .when({ type: 'AdjustBalance', memberId, adjustmentId, amountCentavos: -100_000, reason: 'Paid out in cash', now })
      .then([{ type: 'BalanceAdjusted', data: { memberId, adjustmentId, amountCentavos: -100_000, reason: 'Paid out in cash', adjustedAt: now } }]);
  });

  it('records an adjustment id once: an approved adjustment retried moves the money once', () => {
    const adjusted: MemberEvent = { type: 'BalanceAdjusted', data: { memberId, adjustmentId, amountCentavos: 50_000, reason: 'Refund of a double charge', adjustedAt: now } };
    given(memberDecider, [registered, adjusted]).when({ type: 'AdjustBalance', memberId, adjustmentId, amountCentavos: 50_000, reason: 'Refund of a double charge', now }).then([]);
  });

  it('never takes the balance below zero', () => {
    given(memberDecider, [registered, disbursed(100_000)])
      .when({ type: 'AdjustBalance', memberId, adjustmentId, amountCentavos: -100_001, reason: 'Too much', now })
      .thenThrows('BALANCE_BELOW_ZERO', 'This adjustment would take the balance below zero (the available balance is ₱1,000.00).');
  });
});

describe('member decider: closing the account', () => {
  it('closes an account with nothing open, once', () => {
    const deleted: MemberEvent = { type: 'MemberDeleted', data: { memberId, phone, deletedAt: now } };
    given(memberDecider, [registered]).when({ type: 'DeleteMember', memberId, now }).then([deleted]);
    given(memberDecider, [registered, deleted]).when({ type: 'DeleteMember', memberId, now }).then([]);
    given(memberDecider, [registered, deleted])
      .when({ type: 'UpdateProfile', memberId, changes: { bankName: 'BPI' }, now })
      .thenThrows('MEMBER_NOT_FOUND');
    given(memberDecider, [registered, deleted]).when({ type: 'RegisterMember', memberId, phone, fullName: 'Maria Santos', email: null, passwordHash, registeredBy: 'self', now }).thenThrows('ALREADY_REGISTERED');
  });

  it('refuses while a loan is open, a withdrawal pending or money in the wallet', () => {
    given(memberDecider, [registered, opened]).when({ type: 'DeleteMember', memberId, now }).thenThrows('MEMBER_HAS_OPEN_LOAN');
    const withdrawing: MemberEvent[] = [
      registered,
      disbursed(500_000),
      { type: 'WithdrawalRequested', data: { memberId, withdrawalId, withdrawalNumber: 'WD-2026-000001', amountCentavos: 500_000, bankName: 'BPI', bankAccountNumber: '1234567890', challengeId, requestedAt: now } },
    ];
    given(memberDecider, withdrawing).when({ type: 'DeleteMember', memberId, now }).thenThrows('MEMBER_HAS_PENDING_WITHDRAWAL');
    given(memberDecider, [registered, opened, disbursed(100), closed])
      .when({ type: 'DeleteMember', memberId, now })
      .thenThrows('MEMBER_HAS_BALANCE');
  });
});

describe('member decider: loans opening and closing', () => {
  it('lets a member apply again once their loan is closed, not before', () => {
    const second = '7d1e2f30-4a5b-4c6d-8e9f-0a1b2c3d4e5f';
    const verified: MemberEvent[] = [
      registered,
      { type: 'MemberProfileUpdated', data: { memberId, changes: { address: '123 Rizal Ave, Manila', monthlySalaryCentavos: 1, bankName: 'BPI', bankAccountNumber: '1234567890' }, updatedAt: now } },
      ...(['idFront', 'idBack', 'selfie'] as const).flatMap((kind, i): MemberEvent[] => {
        const fileId = `00000000-0000-4000-8000-00000000000${i}`;
        return [
          { type: 'DocumentUploaded', data: { memberId, fileId, contentType: 'image/png', sizeBytes: 1, sha256: '0'.repeat(64), uploadedBy: memberId, uploadedAt: now } },
          { type: 'IdentityDocumentSet', data: { memberId, kind, fileId, setAt: now } },
        ];
      }),
      { type: 'MemberPhoneVerified', data: { memberId, phone, verifiedAt: now } },
      { type: 'ConsentGiven', data: { memberId, noticeVersion: 'v1', givenAt: now } },
      opened,
    ];
    given(memberDecider, verified).when({ type: 'OpenLoanApplication', memberId, loanId: second, privacyNoticeVersion: 'v1', now }).thenThrows('LOAN_EXISTS');
    given(memberDecider, [...verified, closed])
      .when({ type: 'OpenLoanApplication', memberId, loanId: second, privacyNoticeVersion: 'v1', now })
      .then([{ type: 'LoanApplicationOpened', data: { memberId, loanId: second, openedAt: now } }]);
    // The borrower's own cancellation closes the application as a denial does.
    given(memberDecider, [...verified, { type: 'LoanApplicationClosed', data: { memberId, loanId, closing: 'cancelled', closedAt: now } }])
      .when({ type: 'OpenLoanApplication', memberId, loanId: second, privacyNoticeVersion: 'v1', now })
      .then([{ type: 'LoanApplicationOpened', data: { memberId, loanId: second, openedAt: now } }]);
  });

  it('closes an application once, and ignores loans it never opened', () => {
    const close = { type: 'CloseLoanApplication' as const, memberId, loanId, closing: 'completed' as const, now };
    given(memberDecider, [registered, opened]).when(close).then([closed]);
    given(memberDecider, [registered, opened, closed]).when(close).then([]);
    given(memberDecider, [registered]).when(close).then([]);
  });

  it('disburses an approved loan once however often approval is retried', () => {
    given(memberDecider, [registered, disbursed(8_000_000)])
      .when({ type: 'DisburseLoan', memberId, loanId, amountCentavos: 8_000_000, now })
      .then([]);
  });
});

describe('phone reservation after release', () => {
  const reserved = { type: 'PhoneReserved' as const, data: { phone, memberId, reservedAt: now } };
  const other = 'a0c6a52f-3d8e-4f57-a7f4-0d6e4c1b9a02';

  it('frees a number only for the member holding it', () => {
    given(phoneReservationDecider, [reserved])
      .when({ type: 'ReleasePhone', phone, memberId, now })
      .then([{ type: 'PhoneReleased', data: { phone, memberId, releasedAt: now } }]);
    given(phoneReservationDecider, [reserved]).when({ type: 'ReleasePhone', phone, memberId: other, now }).then([]);
  });

  it('lets someone else reserve a released number', () => {
    given(phoneReservationDecider, [reserved, { type: 'PhoneReleased', data: { phone, memberId, releasedAt: now } }])
      .when({ type: 'ReservePhone', phone, memberId: other, now })
      .then([{ type: 'PhoneReserved', data: { phone, memberId: other, reservedAt: now } }]);
  });
});
