import { describe, it } from 'vitest';
import { given } from '../platform/commands/testing/givenWhenThen.js';
import { memberDecider } from './decide.js';
import { phoneReservationDecider } from './phoneReservation.js';
import type { MemberEvent } from './member.js';

const memberId = '5f0c6a52-3d8e-4f57-a7f4-0d6e4c1b9a01';
const now = '2026-11-22T08:00:00.000Z';
const passwordHash = '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNo';

const registered: MemberEvent = {
  type: 'MemberRegistered',
  data: { memberId, phone: '+639171234567', fullName: 'Maria Santos', email: null, passwordHash, registeredAt: now, registeredBy: 'self' },
};

describe('member decider', () => {
  it('registers a new member', () => {
    given(memberDecider, []).when({ type: 'RegisterMember', memberId, phone: '+639171234567', fullName: 'Maria Santos', email: null, passwordHash, registeredBy: 'self', now }).then([registered]);
  });

  it('refuses to register the same member twice with the spec message', () => {
    given(memberDecider, [registered])
      .when({ type: 'RegisterMember', memberId, phone: '+639171234567', fullName: 'Maria Santos', email: null, passwordHash, registeredBy: 'self', now })
      .thenThrows('ALREADY_REGISTERED', 'You already have an account, please login');
  });

  it('records only the profile fields that really change', () => {
    given(memberDecider, [registered])
      .when({ type: 'UpdateProfile', memberId, changes: { fullName: 'Maria Santos', address: '123 Rizal Ave, Manila', monthlySalaryCentavos: 2_500_000 }, now })
      .then([{ type: 'MemberProfileUpdated', data: { memberId, changes: { address: '123 Rizal Ave, Manila', monthlySalaryCentavos: 2_500_000 }, updatedAt: now } }]);
  });

  it('appends nothing when a profile save changes nothing', () => {
    given(memberDecider, [registered])
      .when({ type: 'UpdateProfile', memberId, changes: { fullName: 'Maria Santos' }, now })
      .then([]);
  });

  it('refuses a profile update for an account that does not exist', () => {
    given(memberDecider, [])
      .when({ type: 'UpdateProfile', memberId, changes: { bankName: 'BPI' }, now })
      .thenThrows('MEMBER_NOT_FOUND');
  });
});

describe('phone reservation decider', () => {
  it('reserves a free number', () => {
    given(phoneReservationDecider, [])
      .when({ type: 'ReservePhone', phone: '+639171234567', memberId, now })
      .then([{ type: 'PhoneReserved', data: { phone: '+639171234567', memberId, reservedAt: now } }]);
  });

  it('refuses a number already taken', () => {
    given(phoneReservationDecider, [{ type: 'PhoneReserved', data: { phone: '+639171234567', memberId, reservedAt: now } }])
      .when({ type: 'ReservePhone', phone: '+639171234567', memberId: 'a0c6a52f-3d8e-4f57-a7f4-0d6e4c1b9a02', now })
      .thenThrows('ALREADY_REGISTERED', 'You already have an account, please login');
  });
});
