import { randomUUID } from 'node:crypto';
import { streams, type RegisterBody } from '@honeylend/contracts';
import type { EventMetadata, EventStore } from '@honeylend/eventstore';
import { handleCommand, loadState } from '../platform/commands/commandHandler.js';
import { DomainError } from '../platform/commands/decider.js';
import { ApiError } from '../platform/errors/apiError.js';
import { hashPassword } from '../platform/passwords/passwords.js';
import { assertNotCommonPassword } from '../platform/passwords/commonPasswords.js';
import { memberDecider } from './decide.js';
import { loadPhoneHolding } from './phoneHolder.js';
import { isClaimable, phoneReservationDecider } from './phoneReservation.js';

/**
 * A reservation whose member stream has not appeared this long after it was made is abandoned (its
 * writer died, or the store went away, between the two appends). The two appends are normally
 * milliseconds apart; the margin keeps a second registration from taking over one still in flight.
 */
export const ABANDONED_RESERVATION_MS = 15_000;

export const REGISTRATION_PENDING_MESSAGE = 'Your registration is still being completed. Please try again in a few seconds.';

export interface Registration {
  memberId: string;
  position: number;
}

/**
 * Registration touches two streams: the phone reservation (no_stream, so one registration per
 * number wins any race) and then the member stream. Should a writer die between the two, the
 * number would stay reserved by a member that never existed; a later registration of the same
 * number completes that abandoned reservation instead of refusing it forever.
 */
export async function registerMember(store: EventStore, input: RegisterBody, registeredBy: 'self' | 'admin', metadata: EventMetadata, now: Date): Promise<Registration> {
  await assertNotCommonPassword(input.password);
  // A number already taken is refused before any hashing: the cheap read first, the 19 MiB argon2 only for a real registration.
  const phone = await phoneStanding(store, input.phone, now);
  const passwordHash = await hashPassword(input.password);
  const at = now.toISOString();
  let memberId: string = randomUUID();
  // A contender for a number never confirmed registers without the reservation: the number goes to whoever confirms it first.
  if (phone === 'free') {
    try {
      await handleCommand(store, streams.phone(input.phone), phoneReservationDecider, { type: 'ReservePhone', phone: input.phone, memberId, now: at }, metadata);
    } catch (error) {
      if (!(error instanceof DomainError && error.code === 'ALREADY_REGISTERED')) throw error;
      memberId = await resumableReservation(store, input.phone, now, error);
    }
  }
  const result = await handleCommand(
    store,
    streams.member(memberId),
    memberDecider,
    { type: 'RegisterMember', memberId, phone: input.phone, fullName: input.fullName, email: input.email ?? null, passwordHash, registeredBy, now: at },
    metadata,
  );
  return { memberId, position: result.position! };
}

/**
 * Refuses a number whose reservation belongs to a member that exists, unless that member has not
 * confirmed it for 7 days ('contended'); a reservation in flight or abandoned is settled later ('free').
 */
async function phoneStanding(store: EventStore, phone: string, now: Date): Promise<'free' | 'contended'> {
  const { reservation, holderExists, holderConfirmed } = await loadPhoneHolding(store, phone);
  if (!reservation.reserved || !holderExists) return 'free';
  if (isClaimable(reservation, holderConfirmed, now)) return 'contended';
  throw new DomainError(409, 'ALREADY_REGISTERED', 'You already have an account, please login', { alreadyRegistered: true });
}

/**
 * The member id of a reservation without a member, when it may be completed now. A number whose
 * member exists is taken (the original refusal); a fresh reservation without a member is a
 * registration in flight, or one cut off moments ago: the caller is asked to retry shortly rather
 * than told the number is taken, which it is not yet.
 */
async function resumableReservation(store: EventStore, phone: string, now: Date, alreadyRegistered: DomainError): Promise<string> {
  const { state } = await loadState(store, streams.phone(phone), phoneReservationDecider);
  if (!state.reserved) throw alreadyRegistered;
  const memberEvents = await store.readStream(streams.member(state.memberId));
  if (memberEvents.length > 0) throw alreadyRegistered;
  const waitMs = Date.parse(state.reservedAt) + ABANDONED_RESERVATION_MS - now.getTime();
  if (waitMs > 0) {
    throw new ApiError(503, 'REGISTRATION_PENDING', REGISTRATION_PENDING_MESSAGE, { retryAfterSeconds: Math.ceil(waitMs / 1000) });
  }
  return state.memberId;
}
