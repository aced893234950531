import { randomUUID } from 'node:crypto';
import { parseDomainEvent, type DomainEvent } from '@honeylend/contracts';
import { WrongExpectedVersion, type EventMetadata, type EventStore } from '@honeylend/eventstore';
import type { Decider } from './decider.js';
import { commandMetrics } from './commandMetrics.js';

export interface HandleResult<State, Event extends DomainEvent> {
  /** The events this command appended (empty when the decider had nothing to change). */
  events: Event[];
  state: State;
  /** Global position of the last appended event, or null when nothing was appended. */
  position: number | null;
}

export interface HandleOptions<State = unknown> {
  /** How many times to decide again after losing a race; hot streams (number sequences) need more. */
  maxAttempts?: number;
  /**
   * The caller has just made this stream's id (or seen the stream empty): the first attempt decides
   * on the initial state and appends expecting no stream, without reading it first. Should the
   * stream exist after all, that append fails and the command is decided on a fresh read.
   */
  newStream?: boolean;
  /**
   * The stream's state as of `revision`, as the caller found it elsewhere (a read model that records
   * the stream revision it reflects). Trusted exactly as a remembered state is: only through the
   * append's expected revision, so a stale one costs a read and is decided again, never more.
   */
  known?: { state: State; revision: number };
}

const DEFAULT_MAX_ATTEMPTS = 4;

/** A stream's folded state as of `revision`, as this process last appended it (or 'no_stream': not yet written). */
interface KnownState {
  revision: number | 'no_stream';
  state: unknown;
}

/** Streams remembered per store and decider; the least recently used are forgotten past this. */
const KNOWN_STREAMS_LIMIT = 20_000;
/** Keyed by the decider object itself (its identity only: its types do not matter here). */
const known = new WeakMap<EventStore, Map<object, Map<string, KnownState>>>();

function knownStates(store: EventStore, decider: object): Map<string, KnownState> {
  let byDecider = known.get(store);
  if (!byDecider) known.set(store, (byDecider = new Map<object, Map<string, KnownState>>()));
  let states = byDecider.get(decider);
  if (!states) byDecider.set(decider, (states = new Map<string, KnownState>()));
  return states;
}

function remember(states: Map<string, KnownState>, stream: string, entry: KnownState): void {
  states.delete(stream); // re-inserted last: a Map iterates in insertion order, so the first key is the least recently used
  states.set(stream, entry);
  if (states.size > KNOWN_STREAMS_LIMIT) states.delete(states.keys().next().value!);
}

/**
 * Read the stream, fold it, decide, and append with the revision read. If someone else appended
 * in between (WrongExpectedVersion), decide again on the fresh state: the decider, not a lock,
 * settles races (for example two withdrawals spending the same pesos).
 *
 * The state this process reached by its own last append to a stream is remembered, and the next
 * command on that stream first decides on it without reading the stream: reading and folding a
 * member's whole history cost a query and most of the API's CPU per command. It is only ever
 * trusted through the append's expected revision — the append succeeds only if nobody else wrote
 * since, i.e. if the remembered state is the current one. Every other outcome (a conflict, a
 * refusal, nothing to change) is decided again on a fresh read, so answers are exactly those of
 * deciding on the stream as stored.
 */
export async function handleCommand<State, Command, Event extends DomainEvent>(
  store: EventStore,
  stream: string,
  decider: Decider<State, Command, Event>,
  command: Command,
  metadata: EventMetadata,
  options: HandleOptions<State> = {},
): Promise<HandleResult<State, Event>> {
  try {
    const result = await decideAndAppend(store, stream, decider, command, metadata, options);
    if (result.position === null) commandMetrics.unchanged(command);
    else commandMetrics.accepted(command);
    return result;
  } catch (error) {
    commandMetrics.failed(command, error);
    throw error;
  }
}

async function decideAndAppend<State, Command, Event extends DomainEvent>(
  store: EventStore,
  stream: string,
  decider: Decider<State, Command, Event>,
  command: Command,
  metadata: EventMetadata,
  { maxAttempts = DEFAULT_MAX_ATTEMPTS, newStream = false, known }: HandleOptions<State>,
): Promise<HandleResult<State, Event>> {
  const states = knownStates(store, decider);
  const remembered: KnownState | undefined = newStream ? { revision: 'no_stream', state: decider.initialState() } : newest(states.get(stream), known);
  if (remembered) {
    states.delete(stream); // whatever happens next, the entry is replaced or no longer trusted
    let events: Event[] = [];
    try {
      events = decider.decide(command, remembered.state as State);
    } catch {
      // A refusal on remembered state is checked against the stored stream below.
    }
    if (events.length > 0) {
      const appended = await appendDecided(store, stream, decider, events, remembered.state as State, remembered.revision, metadata).catch((error: unknown) => {
        if (!(error instanceof WrongExpectedVersion)) throw error;
        commandMetrics.retried(command);
        return null;
      });
      if (appended) {
        // A state the caller brought (a read model's) decides this command only: what this process
        // remembers for the next one comes from the stream or from its own appends on it.
        if (remembered !== known) remember(states, stream, { revision: appended.revision, state: appended.result.state });
        return appended.result;
      }
    }
  }
  for (let attempt = 1; ; attempt++) {
    const recorded = await store.readStream(stream);
    const state = recorded.map((event) => parseDomainEvent(event.type, event.data) as Event).reduce((s, event) => decider.evolve(s, event), decider.initialState());
    const events = decider.decide(command, state);
    if (events.length === 0) return { events, state, position: null };
    try {
      const appended = await appendDecided(store, stream, decider, events, state, recorded.revision, metadata);
      remember(states, stream, { revision: appended.revision, state: appended.result.state });
      return appended.result;
    } catch (error) {
      // Only a conflict is decided again. An append whose outcome is unknown (AppendOutcomeUnknown)
      // may be in the log: deciding again would append it a second time under new ids.
      if (error instanceof WrongExpectedVersion && attempt < maxAttempts) {
        commandMetrics.retried(command);
        // A short random pause spreads the racers out, so a crowd on one stream does not retry in lockstep.
        if (attempt > 2) await new Promise((resolve) => setTimeout(resolve, Math.random() * 2 * attempt));
        continue;
      }
      throw error;
    }
  }
}

/** Of this process's remembered state and the caller's, the one of the later revision: the likelier to be current. */
function newest(remembered: KnownState | undefined, known: { state: unknown; revision: number } | undefined): KnownState | undefined {
  if (!known) return remembered;
  if (!remembered || remembered.revision === 'no_stream' || remembered.revision < known.revision) return known;
  return remembered;
}

async function appendDecided<State, Event extends DomainEvent>(
  store: EventStore,
  stream: string,
  decider: Decider<State, never, Event>,
  events: Event[],
  state: State,
  expectedRevision: number | 'no_stream',
  metadata: EventMetadata,
): Promise<{ revision: number; result: HandleResult<State, Event> }> {
  for (const event of events) parseDomainEvent(event.type, event.data);
  const result = await store.append(
    stream,
    events.map((event) => ({ id: randomUUID(), type: event.type, data: event.data, metadata })),
    { expectedRevision },
  );
  return { revision: result.nextRevision, result: { events, state: events.reduce((s, event) => decider.evolve(s, event), state), position: result.position } };
}

/**
 * Reads and folds a stream without deciding anything, for answers that need the write-side truth
 * (login checks the password hash, which no read model holds). `position` is that of the stream's
 * last event (0 for none), so the caller can wait for the read models to have caught up with it;
 * `revision` lets a command that follows decide on this state (HandleOptions.known) without reading again.
 */
export async function loadState<State, Event extends DomainEvent>(store: EventStore, stream: string, decider: Decider<State, never, Event>): Promise<{ state: State; position: number; revision: number | 'no_stream' }> {
  const recorded = await store.readStream(stream);
  const state = recorded.map((event) => parseDomainEvent(event.type, event.data) as Event).reduce((s, event) => decider.evolve(s, event), decider.initialState());
  return { state, position: recorded.at(-1)?.position ?? 0, revision: recorded.revision };
}
