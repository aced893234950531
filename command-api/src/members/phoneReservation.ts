import type { EventOf } from '@honeylend/contracts';
import { DomainError, type Decider } from '../platform/commands/decider.js';

/**
 * Stream phone-<e164>: one member per phone number. The first reservation is appended with
 * `no_stream`, so of any number of racing registrations exactly one wins. A released number
 * (its member was deleted or moved to another number) can be reserved again, appended with the
 * revision read, so again exactly one racer wins.
 *
 * Registration does not prove the number. A number whose holder has not confirmed it with a
 * texted code within UNCONFIRMED_CLAIMABLE_AFTER_MS may be registered again, and it goes to
 * whoever confirms it first: a squatter cannot keep someone else's number. Whether the holder
 * confirmed it is asked of both records — this stream's PhoneVerified and the holder's own account
 * (MemberPhoneVerified) — so a number its member proved is never claimable, whichever of the two
 * a writer (the API, the demo seed, an import) recorded.
 */
export type PhoneEvent = EventOf<'PhoneReserved' | 'PhoneReleased' | 'PhoneVerified'>;
export type PhoneState = { reserved: false } | { reserved: true; memberId: string; reservedAt: string; verified: boolean };
export type PhoneCommand =
  | { type: 'ReservePhone'; phone: string; memberId: string; now: string }
  /** Frees the number if (and only if) this member still holds it; anything else changes nothing. */
  | { type: 'ReleasePhone'; phone: string; memberId: string; now: string }
  /**
   * The member proved the number with a texted code: they keep it, or claim it from an unconfirmed
   * holder. `holderConfirmed`: the current holder's own account records the number as proved.
   */
  | { type: 'VerifyPhone'; phone: string; memberId: string; holderConfirmed: boolean; now: string };

export const UNCONFIRMED_CLAIMABLE_AFTER_MS = 7 * 24 * 3_600_000;

export const PHONE_TAKEN_MESSAGE = 'This number belongs to another account.';

/**
 * A number held by someone who has not confirmed it for 7 days: a new registration may contend for
 * it. `holderConfirmed` is the holder's own account's word (see above); either record of a
 * confirmation keeps the number with its holder, however old the reservation.
 */
export function isClaimable(state: PhoneState, holderConfirmed: boolean, now: Date): boolean {
  return state.reserved && !state.verified && !holderConfirmed && Date.parse(state.reservedAt) + UNCONFIRMED_CLAIMABLE_AFTER_MS <= now.getTime();
}

export const phoneReservationDecider: Decider<PhoneState, PhoneCommand, PhoneEvent> = {
  initialState: () => ({ reserved: false }),
  evolve: (state, event) => {
    switch (event.type) {
      case 'PhoneReserved':
        return { reserved: true, memberId: event.data.memberId, reservedAt: event.data.reservedAt, verified: false };
      case 'PhoneReleased':
        return { reserved: false };
      case 'PhoneVerified':
        return state.reserved ? { ...state, verified: true } : state;
    }
  },
  decide: (command, state) => {
    if (command.type === 'ReleasePhone') {
      if (!state.reserved || state.memberId !== command.memberId) return [];
      return [{ type: 'PhoneReleased', data: { phone: command.phone, memberId: command.memberId, releasedAt: command.now } }];
    }
    if (command.type === 'VerifyPhone') {
      const { phone, memberId, holderConfirmed, now } = command;
      const verified: PhoneEvent = { type: 'PhoneVerified', data: { phone, memberId, verifiedAt: now } };
      if (state.reserved && state.memberId === memberId) return state.verified ? [] : [verified];
      if (state.reserved && !isClaimable(state, holderConfirmed, new Date(now))) throw new DomainError(409, 'PHONE_TAKEN', PHONE_TAKEN_MESSAGE);
      return [
        ...(state.reserved ? [{ type: 'PhoneReleased', data: { phone, memberId: state.memberId, releasedAt: now } } satisfies PhoneEvent] : []),
        { type: 'PhoneReserved', data: { phone, memberId, reservedAt: now } },
        verified,
      ];
    }
    if (state.reserved) {
      throw new DomainError(409, 'ALREADY_REGISTERED', 'You already have an account, please login', { alreadyRegistered: true });
    }
    return [{ type: 'PhoneReserved', data: { phone: command.phone, memberId: command.memberId, reservedAt: command.now } }];
  },
};
