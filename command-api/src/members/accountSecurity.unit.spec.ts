import { describe, it } from 'vitest';
import type { MemberEvent } from './member.js';
import { memberDecider } from './decide.js';
import { phoneReservationDecider, type PhoneEvent } from './phoneReservation.js';
import { given } from '../platform/commands/testing/givenWhenThen.js';

/** Issue 14 items 9 and 10 on the write side: deciders given/when/then, time from the command. */
const memberId = '3f8e2a10-5b6c-4d7e-8f90-a1b2c3d4e5f6';
const squatterId = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const phone = '+639171234567';
const now = '2026-11-25T08:00:00.000Z';
const passwordHash = '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$bmV3';
const registered: MemberEvent = {
  type: 'MemberRegistered',
  data: { memberId, phone, fullName: 'Maria Santos', email: null, passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$b2xk', registeredAt: now, registeredBy: 'self' },
};
const reserved = (by: string, at: string): PhoneEvent => ({ type: 'PhoneReserved', data: { phone, memberId: by, reservedAt: at } });

describe("member decider: the member's own password and sessions", () => {
  it('records a changed password with its proof', () => {
    given(memberDecider, [registered])
      .when({ type: 'ChangePassword', memberId, passwordHash, proof: 'texted-code', now })
      .then([{ type: 'MemberPasswordChanged', data: { memberId, passwordHash, proof: 'texted-code', changedAt: now } }]);
  });

  it('refuses a suspended member a new password', () => {
    given(memberDecider, [registered, { type: 'MemberStatusChanged', data: { memberId, from: 'active', to: 'suspended', changedAt: now } }])
      .when({ type: 'ChangePassword', memberId, passwordHash, proof: 'current-password', now })
      .thenThrows('ACCOUNT_SUSPENDED');
  });

  it('records a reset staff started, naming the admin, with no password; the member must be active', () => {
    const adminId = '0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e';
    given(memberDecider, [registered])
      .when({ type: 'StartPasswordReset', memberId, startedBy: adminId, now })
      .then([{ type: 'MemberPasswordResetStarted', data: { memberId, startedBy: adminId, startedAt: now } }]);
    given(memberDecider, [registered, { type: 'MemberStatusChanged', data: { memberId, from: 'active', to: 'suspended', changedAt: now } }])
      .when({ type: 'StartPasswordReset', memberId, startedBy: adminId, now })
      .thenThrows('MEMBER_SUSPENDED');
  });

  it('signs out everywhere', () => {
    given(memberDecider, [registered])
      .when({ type: 'SignOutEverywhere', memberId, now })
      .then([{ type: 'MemberSignedOutEverywhere', data: { memberId, signedOutAt: now } }]);
  });
});

describe('member decider: proving the phone', () => {
  it('records the proved number once', () => {
    const proved: MemberEvent = { type: 'MemberPhoneVerified', data: { memberId, phone, verifiedAt: now } };
    given(memberDecider, [registered]).when({ type: 'VerifyPhone', memberId, phone, now }).then([proved]);
    given(memberDecider, [registered, proved]).when({ type: 'VerifyPhone', memberId, phone, now }).then([]);
  });

  it('refuses a code sent to a number the member no longer has', () => {
    given(memberDecider, [registered, { type: 'MemberPhoneChanged', data: { memberId, from: phone, to: '+639181234567', changedAt: now } }])
      .when({ type: 'VerifyPhone', memberId, phone, now })
      .thenThrows('PHONE_CHANGED');
  });

  it('asks a new number to be proved again', () => {
    const proved: MemberEvent = { type: 'MemberPhoneVerified', data: { memberId, phone, verifiedAt: now } };
    given(memberDecider, [registered, proved, { type: 'MemberPhoneChanged', data: { memberId, from: phone, to: '+639181234567', changedAt: now } }])
      .when({ type: 'VerifyPhone', memberId, phone: '+639181234567', now })
      .then([{ type: 'MemberPhoneVerified', data: { memberId, phone: '+639181234567', verifiedAt: now } }]);
  });
});

describe('phone reservation: the first to prove a number keeps it', () => {
  it("confirms the holder's own number", () => {
    given(phoneReservationDecider, [reserved(memberId, now)])
      .when({ type: 'VerifyPhone', phone, memberId, holderConfirmed: false, now })
      .then([{ type: 'PhoneVerified', data: { phone, memberId, verifiedAt: now } }]);
  });

  it('keeps a number for an unconfirmed holder for 7 days', () => {
    given(phoneReservationDecider, [reserved(squatterId, '2026-11-19T08:00:00.000Z')])
      .when({ type: 'VerifyPhone', phone, memberId, holderConfirmed: false, now })
      .thenThrows('PHONE_TAKEN');
  });

  it('hands a number unconfirmed for 7 days to whoever proves it', () => {
    given(phoneReservationDecider, [reserved(squatterId, '2026-11-18T08:00:00.000Z')])
      .when({ type: 'VerifyPhone', phone, memberId, holderConfirmed: false, now })
      .then([
        { type: 'PhoneReleased', data: { phone, memberId: squatterId, releasedAt: now } },
        { type: 'PhoneReserved', data: { phone, memberId, reservedAt: now } },
        { type: 'PhoneVerified', data: { phone, memberId, verifiedAt: now } },
      ]);
  });

  it('never hands over a confirmed number', () => {
    given(phoneReservationDecider, [reserved(squatterId, '2026-01-01T08:00:00.000Z'), { type: 'PhoneVerified', data: { phone, memberId: squatterId, verifiedAt: '2026-01-01T08:05:00.000Z' } }])
      .when({ type: 'VerifyPhone', phone, memberId, holderConfirmed: false, now })
      .thenThrows('PHONE_TAKEN');
  });
});
