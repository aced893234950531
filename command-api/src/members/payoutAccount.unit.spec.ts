import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DomainError } from '../platform/commands/decider.js';
import { given } from '../platform/commands/testing/givenWhenThen.js';
import { decideMember, memberDecider, type MemberCommand } from './decide.js';
import { evolveMember, initialMemberState, type MemberEvent } from './member.js';

/** Issue 14 items 3, 7 and 11: where withdrawals pay, who may change that, and the holds that follow. */
const memberId = '5f0c6a52-3d8e-4f57-a7f4-0d6e4c1b9a01';
const adminId = 'a0a0a0a0-0000-4000-8000-000000000001';
const otherAdminId = 'a0a0a0a0-0000-4000-8000-000000000002';
const challengeId = 'c0c0c0c0-0000-4000-8000-000000000001';
const withdrawalId = 'd0d0d0d0-0000-4000-8000-000000000001';
const loanId = '11111111-2222-4333-8444-555555555555';
const now = '2026-11-22T08:00:00.000Z';
const passwordHash = '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA';
const later = (hours: number) => new Date(Date.parse(now) + hours * 3600_000).toISOString();

const registered: MemberEvent = {
  type: 'MemberRegistered',
  data: { memberId, phone: '+639171234567', fullName: 'Maria Santos', email: null, passwordHash, registeredAt: now, registeredBy: 'self' },
};
const bankAccount = (bankName: string, bankAccountNumber: string): MemberEvent => ({
  type: 'MemberProfileUpdated',
  data: { memberId, changes: { bankName, bankAccountNumber }, updatedAt: now },
});
const disbursed: MemberEvent = { type: 'LoanDisbursed', data: { memberId, loanId, amountCentavos: 1_000_000, disbursedAt: now } };
const funded = [registered, bankAccount('BPI', '1234567890'), disbursed];
const codeRequested = (bankName = 'BPI', bankAccountNumber = '1234567890'): MemberEvent => ({
  type: 'WithdrawalOtpRequested',
  data: { memberId, challengeId, amountCentavos: 500_000, bankName, bankAccountNumber, requestedAt: now },
});
const withdrawal = (overrides: Partial<Extract<MemberCommand, { type: 'RequestWithdrawal' }>> = {}): MemberCommand => ({
  type: 'RequestWithdrawal',
  memberId,
  withdrawalId,
  withdrawalNumber: 'WD-2026-000001',
  amountCentavos: 500_000,
  challengeId,
  now,
  ...overrides,
});
const requested: MemberEvent = {
  type: 'WithdrawalRequested',
  data: { memberId, withdrawalId, withdrawalNumber: 'WD-2026-000001', amountCentavos: 500_000, bankName: 'BPI', bankAccountNumber: '1234567890', challengeId, requestedAt: now },
};
const held = (reason: 'bank-account-changed' | 'phone-changed' | 'too-many-wrong-codes', at = now): MemberEvent => ({
  type: 'WithdrawalsHeld',
  data: { memberId, reason, heldUntil: new Date(Date.parse(at) + 24 * 3600_000).toISOString(), heldAt: at },
});
const passwordResetBy = (admin: string, at = now): MemberEvent => ({ type: 'MemberPasswordReset', data: { memberId, passwordHash, resetAt: at, resetBy: admin } });
/** A reset staff started (the member chooses the password with a texted code). */
const resetStartedBy = (admin: string, at = now): MemberEvent => ({ type: 'MemberPasswordResetStarted', data: { memberId, startedBy: admin, startedAt: at } });

describe('withdrawals pay only the bank account on the profile', () => {
  it('pays the profile account when the request names none', () => {
    given(memberDecider, [...funded, codeRequested()])
      .when(withdrawal())
      .then([requested]);
  });

  it("accepts the spec's fields when they name the profile account (bank name in any case)", () => {
    given(memberDecider, [...funded, codeRequested()])
      .when(withdrawal({ bankName: 'bpi', bankAccountNumber: '1234567890' }))
      .then([requested]);
  });

  it('refuses a request naming another account with a message saying where the money goes', () => {
    given(memberDecider, [...funded, codeRequested()])
      .when(withdrawal({ bankName: 'BPI', bankAccountNumber: '9999999999' }))
      .thenThrows('WITHDRAWAL_DESTINATION_NOT_PROFILE', 'Withdrawals are paid only to the bank account on your profile (BPI ••••7890). To use another account, change it on your profile first.');
    given(memberDecider, [...funded, codeRequested()])
      .when(withdrawal({ bankName: 'GCash' }))
      .thenThrows('WITHDRAWAL_DESTINATION_NOT_PROFILE');
  });

  it('refuses a code and a withdrawal while the profile has no bank account', () => {
    given(memberDecider, [registered, disbursed]).when({ type: 'RequestWithdrawalOtp', memberId, challengeId, amountCentavos: 500_000, now }).thenThrows('NO_PAYOUT_ACCOUNT');
    given(memberDecider, [registered, disbursed])
      .when(withdrawal({ bankName: 'BPI', bankAccountNumber: '1234567890' }))
      .thenThrows('NO_PAYOUT_ACCOUNT');
  });

  it('records the account a code is issued for, and a code issued for another account confirms nothing', () => {
    given(memberDecider, funded).when({ type: 'RequestWithdrawalOtp', memberId, challengeId, amountCentavos: 500_000, now }).then([codeRequested()]);
    given(memberDecider, [...funded, codeRequested('BDO', '5555555555')])
      .when(withdrawal())
      .thenThrows('OTP_FOR_OTHER_ACCOUNT');
  });

  it('property: whatever account a request names, the money goes to the profile account or nowhere', () => {
    const accountNumber = fc.stringMatching(/^\d{10,16}$/);
    fc.assert(
      fc.property(fc.option(fc.constantFrom('BPI', 'bpi', 'BDO', 'GCash', 'Maya')), fc.option(accountNumber), accountNumber, (bankName, named, profileNumber) => {
        const history = [registered, bankAccount('BPI', profileNumber), disbursed];
        const state = history.reduce(evolveMember, initialMemberState());
        const command = withdrawal({ ...(bankName !== null ? { bankName } : {}), ...(named !== null ? { bankAccountNumber: named } : {}) });
        try {
          const events = decideMember(command, state);
          expect(events).toHaveLength(1);
          expect(events[0]).toMatchObject({ type: 'WithdrawalRequested', data: { bankName: 'BPI', bankAccountNumber: profileNumber } });
        } catch (error) {
          expect(error).toBeInstanceOf(DomainError);
          expect((error as DomainError).code).toBe('WITHDRAWAL_DESTINATION_NOT_PROFILE');
          expect((bankName?.toLowerCase() !== 'bpi' && bankName !== null) || (named !== null && named !== profileNumber)).toBe(true);
        }
      }),
    );
  });
});

describe('changing the bank account', () => {
  const change = (bankChangeConfirmed?: boolean): MemberCommand => ({
    type: 'UpdateProfile',
    memberId,
    changes: { bankName: 'BDO', bankAccountNumber: '5555555555' },
    ...(bankChangeConfirmed !== undefined ? { bankChangeConfirmed } : {}),
    now,
  });

  it('takes the first bank details of a profile without a code, and holds nothing', () => {
    given(memberDecider, [registered])
      .when(change())
      .then([bankAccount('BDO', '5555555555')]);
  });

  it('refuses to replace an account without the texted code', () => {
    given(memberDecider, funded).when(change()).thenThrows('BANK_CHANGE_NEEDS_CODE', 'Changing your bank account needs the code we text to your phone. Request a code, then save again with it.');
  });

  it('replaces it with the code and holds withdrawals for 24 hours', () => {
    given(memberDecider, funded)
      .when(change(true))
      .then([bankAccount('BDO', '5555555555'), held('bank-account-changed')]);
  });

  it('lets other profile fields change without a code', () => {
    given(memberDecider, funded)
      .when({ type: 'UpdateProfile', memberId, changes: { address: '45 Bonifacio Street, Cebu', bankName: 'BPI' }, now })
      .then([{ type: 'MemberProfileUpdated', data: { memberId, changes: { address: '45 Bonifacio Street, Cebu' }, updatedAt: now } }]);
  });

  it("is the member's alone: an admin's edit of an existing account is refused", () => {
    given(memberDecider, funded)
      .when({ type: 'AdminUpdateMember', memberId, changes: { bankAccountNumber: '5555555555' }, actor: { id: adminId, role: 'superadmin' }, now })
      .thenThrows('BANK_CHANGE_BY_MEMBER_ONLY');
  });
});

describe('holds on new withdrawals', () => {
  it('refuses codes and withdrawals until the hold ends, naming until when', () => {
    const history = [...funded, codeRequested(), held('bank-account-changed')];
    given(memberDecider, history)
      .when({ type: 'RequestWithdrawalOtp', memberId, challengeId, amountCentavos: 500_000, now: later(1) })
      .thenThrows('WITHDRAWALS_HELD');
    given(memberDecider, history)
      .when(withdrawal({ now: later(23) }))
      .thenThrows('WITHDRAWALS_HELD', 'Withdrawals are paused until 2026-11-23T08:00:00.000Z to protect your money. You can withdraw again after that.');
    given(memberDecider, history)
      .when(withdrawal({ now: later(24) }))
      .then([{ ...requested, data: { ...requested.data, requestedAt: later(24) } }]);
  });

  it('freezes withdrawals for 24 hours on request (too many wrong codes)', () => {
    given(memberDecider, funded)
      .when({ type: 'HoldWithdrawals', memberId, reason: 'too-many-wrong-codes', now })
      .then([held('too-many-wrong-codes')]);
  });

  it('keeps the longest hold when a shorter one follows', () => {
    const state = [...funded, held('phone-changed', later(10)), held('too-many-wrong-codes')].reduce(evolveMember, initialMemberState());
    expect(state.exists && state.withdrawalHold).toEqual({ until: later(34), reason: 'phone-changed' });
  });
});

describe("a member's phone", () => {
  it('is changed by the main admin only', () => {
    given(memberDecider, funded)
      .when({ type: 'AdminUpdateMember', memberId, changes: {}, phone: '+639181234567', actor: { id: adminId, role: 'admin' }, now })
      .thenThrows('MAIN_ADMIN_ONLY', "Only the main admin can change a member's phone number.");
    given(memberDecider, funded).when({ type: 'AdminUpdateMember', memberId, changes: {}, phone: '+639181234567', now }).thenThrows('MAIN_ADMIN_ONLY');
  });

  it('records who changed it and holds withdrawals for 24 hours', () => {
    given(memberDecider, funded)
      .when({ type: 'AdminUpdateMember', memberId, changes: {}, phone: '+639181234567', actor: { id: adminId, role: 'superadmin' }, now })
      .then([{ type: 'MemberPhoneChanged', data: { memberId, from: '+639171234567', to: '+639181234567', changedAt: now, changedBy: adminId } }, held('phone-changed')]);
  });
});

describe('an admin who changed who controls the account', () => {
  const pending = [...funded, codeRequested(), requested];
  const complete = (admin: string, at = now): MemberCommand => ({ type: 'CompleteWithdrawal', memberId, withdrawalId, adminId: admin, now: at });
  const phoneChangedBy = (admin: string): MemberEvent => ({ type: 'MemberPhoneChanged', data: { memberId, from: '+639171234567', to: '+639181234567', changedAt: now, changedBy: admin } });

  it('cannot complete that member’s withdrawal for 24 hours; another admin can', () => {
    for (const change of [passwordResetBy(adminId), resetStartedBy(adminId), phoneChangedBy(adminId)]) {
      given(memberDecider, [...pending, change])
        .when(complete(adminId, later(23)))
        .thenThrows('IDENTITY_CHANGED_BY_YOU');
      given(memberDecider, [...pending, change])
        .when(complete(otherAdminId, later(1)))
        .then([{ type: 'WithdrawalCompleted', data: { memberId, withdrawalId, processedAt: later(1) } }]);
      given(memberDecider, [...pending, change])
        .when(complete(adminId, later(25)))
        .then([{ type: 'WithdrawalCompleted', data: { memberId, withdrawalId, processedAt: later(25) } }]);
    }
  });

  it('is judged at the time of the decision, not at the processing time the admin types', () => {
    given(memberDecider, [...pending, passwordResetBy(adminId, later(2))])
      .when({ type: 'CompleteWithdrawal', memberId, withdrawalId, adminId, processedAt: later(1), now: later(3) })
      .thenThrows('IDENTITY_CHANGED_BY_YOU');
  });
});

describe('tokens revoked on the write side', () => {
  it('refuses a code and a withdrawal asked for with a token older than a password reset', () => {
    const reset = [...funded, passwordResetBy(adminId)];
    given(memberDecider, reset).when({ type: 'RequestWithdrawalOtp', memberId, challengeId, amountCentavos: 500_000, tokenVersion: 0, now }).thenThrows('UNAUTHORIZED');
    given(memberDecider, [...reset, codeRequested()])
      .when(withdrawal({ tokenVersion: 0 }))
      .thenThrows('UNAUTHORIZED');
    given(memberDecider, [...reset, codeRequested()])
      .when(withdrawal({ tokenVersion: 1 }))
      .then([requested]);
  });
});
