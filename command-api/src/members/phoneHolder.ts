import { streams } from '@honeylend/contracts';
import type { EventStore } from '@honeylend/eventstore';
import { loadState } from '../platform/commands/commandHandler.js';
import { memberDecider } from './decide.js';
import { isPhoneVerified } from './member.js';
import { phoneReservationDecider, type PhoneState } from './phoneReservation.js';

export interface PhoneHolding {
  reservation: PhoneState;
  /** The reserving member's stream has events (false: a registration in flight, or abandoned between its two appends). */
  holderExists: boolean;
  /** The holder's own account records this number as proved: the number stays theirs, whatever the reservation says. */
  holderConfirmed: boolean;
}

/** The number's reservation and what its holder's account says about it, from the write side. */
export async function loadPhoneHolding(store: EventStore, phone: string): Promise<PhoneHolding> {
  const { state: reservation } = await loadState(store, streams.phone(phone), phoneReservationDecider);
  if (!reservation.reserved) return { reservation, holderExists: false, holderConfirmed: false };
  const holder = await loadState(store, streams.member(reservation.memberId), memberDecider);
  const holderConfirmed = holder.state.exists && holder.state.phone === phone && isPhoneVerified(holder.state);
  return { reservation, holderExists: holder.revision !== 'no_stream', holderConfirmed };
}
