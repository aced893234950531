/**
 * The event-store port. Every adapter (EventStoreDB, PostgreSQL, PGlite) implements exactly this,
 * and the conformance suite in `conformance.ts` holds each of them to the same behaviour.
 *
 * Revisions are 0-based per stream (the first event of a stream has revision 0).
 * Positions are global, strictly increasing in commit order, and unique per event; readers never
 * observe a position before every smaller position has become visible.
 */

/** Expected state of the stream before an append: must not exist, anything, or exactly at this revision. */
export type ExpectedRevision = 'no_stream' | 'any' | number;

export interface EventMetadata {
  correlationId?: string;
  causationId?: string;
  /** Who caused the event: a member or admin id, or 'system'. */
  actorId?: string;
  /** The client address the command came from. */
  ip?: string;
  [extra: string]: unknown;
}

export interface NewEvent {
  /**
   * A UUID chosen by the writer; re-appending the same ids to the same stream is a no-op (an
   * idempotent retry). Ids are unique within a stream on every adapter. The SQL adapters also
   * refuse an id already stored in another stream; EventStoreDB does not look there, so nothing
   * may rely on an id being unique across streams.
   */
  id: string;
  type: string;
  data: Record<string, unknown>;
  metadata?: EventMetadata;
  /**
   * Only for restoring a backup (`lending restore`): the time the event was first recorded, kept
   * instead of now. Commands never set it. EventStoreDB always records its own time, so restore
   * does not write there.
   */
  createdAt?: string;
}

export interface RecordedEvent {
  id: string;
  stream: string;
  type: string;
  data: Record<string, unknown>;
  metadata: EventMetadata;
  revision: number;
  position: number;
  /** ISO-8601 time the store recorded the event. */
  createdAt: string;
}

/** A recorded event with its link in the log's hash chain (design §10; see integrity/eventHash.ts). */
export interface ChainedEvent extends RecordedEvent {
  /** The previous event's hash (64 zeros before the first event), lowercase hex. */
  prevHash: string;
  hash: string;
}

/**
 * What an adapter guarantees against a rewritten log, stated so that verification, the
 * conformance suite and the README say the same thing.
 */
export interface IntegrityGuarantees {
  /**
   * Who refuses changing or removing stored events: 'trigger' — a trigger on the events table
   * refuses UPDATE, DELETE and TRUNCATE (a database superuser can still disable it, which the
   * hash chain and signed checkpoints then reveal); 'store' — the store has no such operation
   * (EventStoreDB: append-only, with ACLs on streams); 'none' only for a SQL log opened without
   * its chain to measure what the chain costs (the benchmark), never by the system.
   */
  appendOnly: 'trigger' | 'store' | 'none';
  /**
   * 'stored': every event row carries prev_hash and hash, computed in its append transaction
   * (readChain answers them); 'computed': nothing is stored beside the events, and the chain is
   * recomputed from the log whenever it is needed (checkpoints sign that digest).
   */
  hashChain: 'stored' | 'computed' | 'none';
  /** Positions are 1, 2, 3… with no gap, so a removed event shows as a missing position. */
  densePositions: boolean;
}

export interface AppendResult {
  /** Revision of the last event now in the stream. */
  nextRevision: number;
  /** Global position of the last appended event (of the original append, on an idempotent retry). */
  position: number;
}

export interface AppendOptions {
  expectedRevision: ExpectedRevision;
}

/** Lets a caller that stops waiting (a readiness probe past its own deadline) cancel the call it abandons. */
export interface CallOptions {
  signal?: AbortSignal;
}

/**
 * A stream's events, in revision order, and the stream's revision. The revision counts every record
 * of the stream, including any the port does not carry (on EventStoreDB: an event not written as a
 * JSON object, or of a `$` type, written by another client), so it is the expected revision to
 * append after what was read.
 */
export interface StreamEvents extends Array<RecordedEvent> {
  /** Revision of the stream's last record, or 'no_stream' when the stream does not exist. */
  readonly revision: number | 'no_stream';
}

/**
 * Tags a stream's events with the stream's revision (that of the last event, unless told
 * otherwise). The tag is not enumerable, so the events still compare and serialize as a list.
 */
export function streamEvents(events: RecordedEvent[], revision: number | 'no_stream' = events.at(-1)?.revision ?? 'no_stream'): StreamEvents {
  return Object.defineProperty(events, 'revision', { value: revision, enumerable: false }) as StreamEvents;
}

export interface ReadAllOptions {
  /**
   * Exclusive: only events with a position greater than this (a checkpoint). Default: from the start.
   * Positions are opaque: pass back only 0 or a position this store returned. Anything else may
   * be refused with InvalidPosition (EventStoreDB's positions are byte offsets into its log).
   */
  from?: number;
  /** At most this many events (default 1000). */
  limit?: number;
}

export interface SubscribeAllOptions {
  /** Exclusive, as in readAll: resume after this position (a checkpoint). Default: from the start. */
  from?: number;
  /** Aborting ends the iteration cleanly (the loop simply finishes). */
  signal?: AbortSignal;
}

export interface EventStore {
  /** Which adapter this is, for logs and /api/ready: 'pglite' | 'postgres' | 'esdb'. */
  readonly kind: string;
  /**
   * What the difference of two positions counts: events on the SQL adapters (their positions are
   * dense, 1, 2, 3…), bytes of log on EventStoreDB (a position is an offset into its log).
   */
  readonly positionUnit: 'events' | 'bytes';
  /**
   * Throws WrongExpectedVersion on a conflict (nothing was written), EventStoreUnavailable when the
   * store could not take the append (nothing was written), and AppendOutcomeUnknown when it may or
   * may not have been written.
   */
  append(stream: string, events: NewEvent[], options: AppendOptions): Promise<AppendResult>;
  /** All events of a stream in revision order; an empty list when the stream does not exist. */
  readStream(stream: string): Promise<StreamEvents>;
  /** Events of every stream in global order. */
  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]>;
  /** Catch-up (everything after `from`) then live, in global order, with no gap and no duplicate. */
  subscribeAll(options?: SubscribeAllOptions): AsyncIterable<RecordedEvent>;
  /** How this adapter protects the log from being rewritten (see IntegrityGuarantees). */
  readonly integrity: IntegrityGuarantees;
  /**
   * Like readAll, with each event's stored prevHash and hash exactly as stored (not checked);
   * with `stream`, only that stream's events. Only where `integrity.hashChain` is 'stored'.
   */
  readChain?(options?: ReadAllOptions & { stream?: string }): Promise<ChainedEvent[]>;
  /** Position of the newest event in the store (0 when empty); used to report projection lag. */
  headPosition(options?: CallOptions): Promise<number>;
  /** Resolves when the store answers; rejects otherwise (within a few seconds, or when the signal aborts). */
  ping(options?: CallOptions): Promise<void>;
  /**
   * An id kept in the store itself: the same for every process that opens this store, a new one
   * for another store (another database or schema, a new EventStoreDB, a log restored into an
   * empty store). Read models record it with their checkpoint, since positions mean nothing in
   * another store.
   */
  storeId(): Promise<string>;
  close(): Promise<void>;
}

export const START = 0;

/** Names one store among all: its adapter and the id kept in it, e.g. "esdb:3f2c…". */
export async function storeIdentityOf(store: EventStore): Promise<string> {
  return `${store.kind}:${await store.storeId()}`;
}

/** The stream was not at the expected revision. Callers reload, decide again, and retry. */
export class WrongExpectedVersion extends Error {
  override readonly name = 'WrongExpectedVersion';
  constructor(
    readonly stream: string,
    readonly expected: ExpectedRevision,
    /** The stream's actual revision, or 'no_stream' when it does not exist (when the adapter knows). */
    readonly actual: number | 'no_stream' | 'unknown',
  ) {
    super(`stream ${stream}: expected revision ${String(expected)}, actual ${String(actual)}`);
  }
}

/** The store could not be reached or failed; the command was not applied. Answered as 503. */
export class EventStoreUnavailable extends Error {
  override readonly name = 'EventStoreUnavailable';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/**
 * The store did not confirm an append and could not be asked whether it happened: the events may
 * be in the log, or may still get there. Answered as 503 with Retry-After. Never retry the command
 * with new event ids (it could happen twice); the same append with the same ids is safe.
 */
export class AppendOutcomeUnknown extends Error {
  override readonly name = 'AppendOutcomeUnknown';
  constructor(
    readonly stream: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** A position this store never returned (another store's checkpoint, a made-up number): nothing was read. */
export class InvalidPosition extends Error {
  override readonly name = 'InvalidPosition';
  constructor(
    readonly position: number,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(`position ${position} is not a position of this event store: ${detail}`, options);
  }
}
