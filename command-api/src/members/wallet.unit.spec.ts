import { describe, expect, it } from 'vitest';
import { given } from '../platform/commands/testing/givenWhenThen.js';
import { memberDecider } from './decide.js';
import { evolveMember, initialMemberState, type MemberEvent } from './member.js';

const memberId = '5f0c6a52-3d8e-4f57-a7f4-0d6e4c1b9a01';
const loanId = '11111111-2222-4333-8444-555555555555';
const fileIds = ['a1a1a1a1-0000-4000-8000-000000000001', 'a1a1a1a1-0000-4000-8000-000000000002', 'a1a1a1a1-0000-4000-8000-000000000003'];
const challengeId = 'c0c0c0c0-0000-4000-8000-000000000001';
const withdrawalId = 'd0d0d0d0-0000-4000-8000-000000000001';
const now = '2026-11-22T08:00:00.000Z';
const sha256 = 'a'.repeat(64);

const registered: MemberEvent = {
  type: 'MemberRegistered',
  data: { memberId, phone: '+639171234567', fullName: 'Maria Santos', email: null, passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA', registeredAt: now, registeredBy: 'self' },
};
const personalInfo: MemberEvent = {
  type: 'MemberProfileUpdated',
  data: { memberId, changes: { address: '123 Rizal Avenue, Manila', monthlySalaryCentavos: 2_500_000, bankName: 'BPI', bankAccountNumber: '1234567890' }, updatedAt: now },
};
const uploads: MemberEvent[] = fileIds.map((fileId) => ({
  type: 'DocumentUploaded',
  data: { memberId, fileId, contentType: 'image/png', sizeBytes: 1024, sha256, uploadedBy: memberId, uploadedAt: now },
}));
const documents: MemberEvent[] = (['idFront', 'idBack', 'selfie'] as const).map((kind, i) => ({
  type: 'IdentityDocumentSet',
  data: { memberId, kind, fileId: fileIds[i], setAt: now },
}));
const phoneProved: MemberEvent = { type: 'MemberPhoneVerified', data: { memberId, phone: '+639171234567', verifiedAt: now } };
const consented: MemberEvent = { type: 'ConsentGiven', data: { memberId, noticeVersion: 'v1', givenAt: now } };
const verified = [registered, personalInfo, ...uploads, ...documents, phoneProved, consented];
const opened: MemberEvent = { type: 'LoanApplicationOpened', data: { memberId, loanId, openedAt: now } };
const disbursed = (amountCentavos: number): MemberEvent => ({ type: 'LoanDisbursed', data: { memberId, loanId, amountCentavos, disbursedAt: now } });
const withdrawal = (amountCentavos: number, id = withdrawalId, challenge = challengeId) => ({
  type: 'RequestWithdrawal' as const,
  memberId,
  withdrawalId: id,
  withdrawalNumber: 'WD-2026-000001',
  amountCentavos,
  bankName: 'BPI',
  bankAccountNumber: '1234567890',
  challengeId: challenge,
  now,
});
const requested = (amountCentavos: number): MemberEvent => ({
  type: 'WithdrawalRequested',
  data: { memberId, withdrawalId, withdrawalNumber: 'WD-2026-000001', amountCentavos, bankName: 'BPI', bankAccountNumber: '1234567890', challengeId, requestedAt: now },
});
const balanceAfter = (events: MemberEvent[]) => {
  const state = events.reduce(evolveMember, initialMemberState());
  return state.exists ? state.balanceCentavos : NaN;
};

describe('identity documents', () => {
  it('sets a document the member uploaded', () => {
    given(memberDecider, [registered, uploads[0]]).when({ type: 'SetIdentityDocument', memberId, kind: 'idFront', fileId: fileIds[0], now }).then([documents[0]]);
  });
  it("refuses a file the member did not upload (another member's document)", () => {
    given(memberDecider, [registered]).when({ type: 'SetIdentityDocument', memberId, kind: 'idFront', fileId: fileIds[0], now }).thenThrows('DOCUMENT_NOT_FOUND');
  });
});

describe('loan application guard', () => {
  it('opens an application for a verified member with no loan', () => {
    given(memberDecider, verified).when({ type: 'OpenLoanApplication', memberId, loanId, privacyNoticeVersion: 'v1', now }).then([opened]);
  });
  it('refuses a member whose phone number is not proved yet (issue 14)', () => {
    given(memberDecider, [registered, personalInfo, ...uploads, ...documents])
      .when({ type: 'OpenLoanApplication', memberId, loanId, privacyNoticeVersion: 'v1', now })
      .thenThrows('PHONE_NOT_VERIFIED', 'Confirm your phone number before applying for a loan: we text you a code.');
  });
  it('refuses an unverified member with the spec message', () => {
    given(memberDecider, [registered, personalInfo])
      .when({ type: 'OpenLoanApplication', memberId, loanId, privacyNoticeVersion: 'v1', now })
      .thenThrows('VERIFICATION_REQUIRED', 'You need to complete your account verification before applying for a loan.');
  });
  it('refuses a second loan', () => {
    given(memberDecider, [...verified, opened])
      .when({ type: 'OpenLoanApplication', memberId, loanId: '99999999-2222-4333-8444-555555555555', privacyNoticeVersion: 'v1', now })
      .thenThrows('LOAN_EXISTS');
  });
});

describe('wallet ledger', () => {
  it('disburses an approved loan to the wallet exactly once', () => {
    given(memberDecider, [...verified, opened])
      .when({ type: 'DisburseLoan', memberId, loanId, amountCentavos: 8_000_000, now })
      .then([disbursed(8_000_000)]);
    given(memberDecider, [...verified, opened, disbursed(8_000_000)])
      .when({ type: 'DisburseLoan', memberId, loanId, amountCentavos: 8_000_000, now })
      .then([]);
  });

  it('holds a withdrawal at once, keeps it out on completion, and refunds it on rejection', () => {
    const base = [...verified, opened, disbursed(8_000_000)];
    expect(balanceAfter([...base, requested(300_000)])).toBe(7_700_000);
    expect(balanceAfter([...base, requested(300_000), { type: 'WithdrawalCompleted', data: { memberId, withdrawalId, processedAt: now } }])).toBe(7_700_000);
    expect(balanceAfter([...base, requested(300_000), { type: 'WithdrawalRejected', data: { memberId, withdrawalId, reason: null, rejectedAt: now } }])).toBe(8_000_000);
  });

  it('refuses a withdrawal below ₱1,000 with the spec message', () => {
    given(memberDecider, [...verified, opened, disbursed(8_000_000)])
      .when(withdrawal(99_999))
      .thenThrows('WITHDRAWAL_TOO_SMALL', 'Minimum withdrawal amount is ₱1,000');
  });

  it('refuses more than the balance, and any withdrawal at a zero balance, with the spec message', () => {
    given(memberDecider, [...verified, opened, disbursed(500_000)])
      .when(withdrawal(500_001))
      .thenThrows('INSUFFICIENT_FUNDS', 'Insufficient funds - Unavailable to request a withdrawal');
    given(memberDecider, verified).when(withdrawal(100_000)).thenThrows('INSUFFICIENT_FUNDS');
    given(memberDecider, verified).when({ type: 'RequestWithdrawalOtp', memberId, challengeId, amountCentavos: 100_000, now }).thenThrows('INSUFFICIENT_FUNDS', 'Insufficient funds - Unavailable to request a withdrawal');
  });

  it('takes the whole balance but not a centavo more', () => {
    given(memberDecider, [...verified, opened, disbursed(500_000)])
      .when(withdrawal(500_000))
      .then([requested(500_000)]);
  });

  it('refuses to spend one OTP challenge twice', () => {
    given(memberDecider, [...verified, opened, disbursed(8_000_000), requested(100_000)])
      .when(withdrawal(100_000, 'd0d0d0d0-0000-4000-8000-000000000002'))
      .thenThrows('OTP_ALREADY_USED');
  });

  it('lets an admin decide a pending withdrawal once', () => {
    const base = [...verified, opened, disbursed(8_000_000), requested(100_000)];
    given(memberDecider, base)
      .when({ type: 'CompleteWithdrawal', memberId, withdrawalId, now })
      .then([{ type: 'WithdrawalCompleted', data: { memberId, withdrawalId, processedAt: now } }]);
    given(memberDecider, [...base, { type: 'WithdrawalCompleted', data: { memberId, withdrawalId, processedAt: now } }])
      .when({ type: 'RejectWithdrawal', memberId, withdrawalId, reason: null, now })
      .thenThrows('WITHDRAWAL_ALREADY_DECIDED');
  });
});
