import { randomUUID } from 'node:crypto';
import { parseDomainEvent, type DomainEvent } from '@honeylend/contracts';
import { WrongExpectedVersion, type EventMetadata, type EventStore } from '@honeylend/eventstore';
import type { Decider } from './decider.js';

export interface HandleResult<State, Event extends DomainEvent> {
  /** The events this command appended (empty when the decider had nothing to change). */
  events: Event[];
  state: State;
  /** Global position of the last appended event, or null when nothing was appended. */
  position: number | null;
}

export interface HandleOptions {
  /** How many times to decide again after losing a race; hot streams (number sequences) need more. */
  maxAttempts?: number;
}

const DEFAULT_MAX_ATTEMPTS = 4;

/**
 * Read the stream, fold it, decide, and append with the revision read. If someone else appended
 * in between (WrongExpectedVersion), decide again on the fresh state: the decider, not a lock,
 * settles races (for example two withdrawals spending the same pesos).
 */
export async function handleCommand<State, Command, Event extends DomainEvent>(
  store: EventStore,
  stream: string,
  decider: Decider<State, Command, Event>,
  command: Command,
  metadata: EventMetadata,
  { maxAttempts = DEFAULT_MAX_ATTEMPTS }: HandleOptions = {},
): Promise<HandleResult<State, Event>> {
  for (let attempt = 1; ; attempt++) {
    const recorded = await store.readStream(stream);
    const state = recorded
      .map((event) => parseDomainEvent(event.type, event.data) as Event)
      .reduce((s, event) => decider.evolve(s, event), decider.initialState());
    const events = decider.decide(command, state);
    if (events.length === 0) return { events, state, position: null };
    for (const event of events) parseDomainEvent(event.type, event.data);
    try {
      const result = await store.append(
        stream,
        events.map((event) => ({ id: randomUUID(), type: event.type, data: event.data as Record<string, unknown>, metadata })),
        { expectedRevision: recorded.length === 0 ? 'no_stream' : recorded[recorded.length - 1]!.revision },
      );
      return { events, state: events.reduce((s, event) => decider.evolve(s, event), state), position: result.position };
    } catch (error) {
      if (error instanceof WrongExpectedVersion && attempt < maxAttempts) {
        // A short random pause spreads the racers out, so a crowd on one stream does not retry in lockstep.
        if (attempt > 2) await new Promise((resolve) => setTimeout(resolve, Math.random() * 2 * attempt));
        continue;
      }
      throw error;
    }
  }
}

/**
 * Reads and folds a stream without deciding anything, for answers that need the write-side truth
 * (login checks the password hash, which no read model holds). `position` is that of the stream's
 * last event (0 for none), so the caller can wait for the read models to have caught up with it.
 */
export async function loadState<State, Event extends DomainEvent>(
  store: EventStore,
  stream: string,
  decider: Decider<State, never, Event>,
): Promise<{ state: State; position: number }> {
  const recorded = await store.readStream(stream);
  const state = recorded
    .map((event) => parseDomainEvent(event.type, event.data) as Event)
    .reduce((s, event) => decider.evolve(s, event), decider.initialState());
  return { state, position: recorded.at(-1)?.position ?? 0 };
}
