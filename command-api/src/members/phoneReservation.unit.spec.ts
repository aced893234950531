import { describe, expect, it } from 'vitest';
import { given } from '../platform/commands/testing/givenWhenThen.js';
import { isClaimable, phoneReservationDecider, UNCONFIRMED_CLAIMABLE_AFTER_MS, type PhoneEvent, type PhoneState } from './phoneReservation.js';

/*
 * A number its member confirmed is never claimable, whichever record holds the confirmation: the
 * reservation's own PhoneVerified, or only the member's account (MemberPhoneVerified), as a seed or
 * an import may have written it.
 */
const holderId = '0b6f1f3e-8a44-4c1e-9d7b-3a2c5e6f7a81';
const newcomerId = '5d2e8c41-7f3a-4b6e-a1c9-0e4d7b2f9c36';
const phone = '+639175560191';
const now = '2026-11-27T08:00:00.000Z';
const ages = [UNCONFIRMED_CLAIMABLE_AFTER_MS, 30 * 86_400_000, 400 * 86_400_000];
const reservedAgo = (ms: number): PhoneEvent => ({ type: 'PhoneReserved', data: { phone, memberId: holderId, reservedAt: new Date(Date.parse(now) - ms).toISOString() } });
const stateOf = (events: PhoneEvent[]): PhoneState => events.reduce((state, event) => phoneReservationDecider.evolve(state, event), phoneReservationDecider.initialState());

describe('phone reservation: a confirmed number is never claimable', () => {
  it("is not claimable, however old, when the holder's account confirmed it and the reservation never heard", () => {
    for (const age of ages) {
      const reservation = stateOf([reservedAgo(age)]);
      expect(isClaimable(reservation, true, new Date(now)), `${age} ms old`).toBe(false);
      // The same reservation without a confirmation anywhere is claimable: the holder's word is what keeps it.
      expect(isClaimable(reservation, false, new Date(now)), `${age} ms old`).toBe(true);
    }
  });

  it("refuses a newcomer's claim on a number the holder's account confirmed, however old the reservation", () => {
    for (const age of ages) {
      given(phoneReservationDecider, [reservedAgo(age)])
        .when({ type: 'VerifyPhone', phone, memberId: newcomerId, holderConfirmed: true, now })
        .thenThrows('PHONE_TAKEN');
    }
  });

  it('is not claimable when the reservation records the confirmation, whatever the account says', () => {
    const confirmed = stateOf([reservedAgo(400 * 86_400_000), { type: 'PhoneVerified', data: { phone, memberId: holderId, verifiedAt: now } }]);
    expect(isClaimable(confirmed, false, new Date(now))).toBe(false);
  });
});
