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
  /** A UUID chosen by the writer; re-appending the same ids is a no-op (idempotent retry). */
  id: string;
  type: string;
  data: Record<string, unknown>;
  metadata?: EventMetadata;
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

export interface AppendResult {
  /** Revision of the last event now in the stream. */
  nextRevision: number;
  /** Global position of the last appended event (of the original append, on an idempotent retry). */
  position: number;
}

export interface AppendOptions {
  expectedRevision: ExpectedRevision;
}

export interface ReadAllOptions {
  /** Exclusive: only events with a position greater than this (a checkpoint). Default: from the start. */
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
  append(stream: string, events: NewEvent[], options: AppendOptions): Promise<AppendResult>;
  /** All events of a stream in revision order; an empty list when the stream does not exist. */
  readStream(stream: string): Promise<RecordedEvent[]>;
  /** Events of every stream in global order. */
  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]>;
  /** Catch-up (everything after `from`) then live, in global order, with no gap and no duplicate. */
  subscribeAll(options?: SubscribeAllOptions): AsyncIterable<RecordedEvent>;
  /** Position of the newest event in the store (0 when empty); used to report projection lag. */
  headPosition(): Promise<number>;
  /** Resolves when the store answers; rejects otherwise. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export const START = 0;

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
