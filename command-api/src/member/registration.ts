import { randomUUID } from 'node:crypto';
import { streams, type RegisterBody } from '@honeylend/contracts';
import type { EventMetadata, EventStore } from '@honeylend/eventstore';
import { handleCommand, loadState } from '../domain/commandHandler.js';
import { DomainError } from '../domain/decider.js';
import { hashPassword } from '../auth/passwords.js';
import { assertNotCommonPassword } from '../auth/commonPasswords.js';
import { memberDecider } from './decide.js';
import { phoneReservationDecider } from './phoneReservation.js';

/** A reservation whose member stream never appeared (the writer died between the two appends). */
const ABANDONED_RESERVATION_MS = 60_000;

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
export async function registerMember(
  store: EventStore,
  input: RegisterBody,
  registeredBy: 'self' | 'admin',
  metadata: EventMetadata,
  now: Date,
): Promise<Registration> {
  await assertNotCommonPassword(input.password);
  const passwordHash = await hashPassword(input.password);
  const at = now.toISOString();
  let memberId: string = randomUUID();
  try {
    await handleCommand(store, streams.phone(input.phone), phoneReservationDecider, { type: 'ReservePhone', phone: input.phone, memberId, now: at }, metadata);
  } catch (error) {
    const abandoned = error instanceof DomainError && error.code === 'ALREADY_REGISTERED' ? await abandonedReservation(store, input.phone, now) : null;
    if (!abandoned) throw error;
    memberId = abandoned;
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

async function abandonedReservation(store: EventStore, phone: string, now: Date): Promise<string | null> {
  const { state } = await loadState(store, streams.phone(phone), phoneReservationDecider);
  if (!state.reserved || now.getTime() - Date.parse(state.reservedAt) < ABANDONED_RESERVATION_MS) return null;
  const memberEvents = await store.readStream(streams.member(state.memberId));
  return memberEvents.length === 0 ? state.memberId : null;
}
