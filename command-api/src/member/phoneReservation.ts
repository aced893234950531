import type { EventData } from '@honeylend/contracts';
import { DomainError, type Decider } from '../domain/decider.js';

/**
 * Stream phone-<e164>: one member per phone number. The first reservation is appended with
 * `no_stream`, so of any number of racing registrations exactly one wins.
 */
export type PhoneEvent = { type: 'PhoneReserved'; data: EventData<'PhoneReserved'> };
export type PhoneState = { reserved: false } | { reserved: true; memberId: string; reservedAt: string };
export type PhoneCommand = { type: 'ReservePhone'; phone: string; memberId: string; now: string };

export const phoneReservationDecider: Decider<PhoneState, PhoneCommand, PhoneEvent> = {
  initialState: () => ({ reserved: false }),
  evolve: (_state, event) => ({ reserved: true, memberId: event.data.memberId, reservedAt: event.data.reservedAt }),
  decide: (command, state) => {
    if (state.reserved) {
      throw new DomainError(409, 'ALREADY_REGISTERED', 'You already have an account, please login', { alreadyRegistered: true });
    }
    return [{ type: 'PhoneReserved', data: { phone: command.phone, memberId: command.memberId, reservedAt: command.now } }];
  },
};
