import type { EventOf } from '@honeylend/contracts';
import { DomainError, type Decider } from '../domain/decider.js';

/**
 * Stream phone-<e164>: one member per phone number. The first reservation is appended with
 * `no_stream`, so of any number of racing registrations exactly one wins. A released number
 * (its member was deleted or moved to another number) can be reserved again, appended with the
 * revision read, so again exactly one racer wins.
 */
export type PhoneEvent = EventOf<'PhoneReserved' | 'PhoneReleased'>;
export type PhoneState = { reserved: false } | { reserved: true; memberId: string; reservedAt: string };
export type PhoneCommand =
  | { type: 'ReservePhone'; phone: string; memberId: string; now: string }
  /** Frees the number if (and only if) this member still holds it; anything else changes nothing. */
  | { type: 'ReleasePhone'; phone: string; memberId: string; now: string };

export const phoneReservationDecider: Decider<PhoneState, PhoneCommand, PhoneEvent> = {
  initialState: () => ({ reserved: false }),
  evolve: (_state, event) =>
    event.type === 'PhoneReserved' ? { reserved: true, memberId: event.data.memberId, reservedAt: event.data.reservedAt } : { reserved: false },
  decide: (command, state) => {
    if (command.type === 'ReleasePhone') {
      if (!state.reserved || state.memberId !== command.memberId) return [];
      return [{ type: 'PhoneReleased', data: { phone: command.phone, memberId: command.memberId, releasedAt: command.now } }];
    }
    if (state.reserved) {
      throw new DomainError(409, 'ALREADY_REGISTERED', 'You already have an account, please login', { alreadyRegistered: true });
    }
    return [{ type: 'PhoneReserved', data: { phone: command.phone, memberId: command.memberId, reservedAt: command.now } }];
  },
};
