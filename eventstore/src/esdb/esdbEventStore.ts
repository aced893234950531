import { randomUUID } from 'node:crypto';
import {
  ANY,
  BACKWARDS,
  DeadlineExceededError,
  END,
  EventStoreDBClient,
  FORWARDS,
  NO_STREAM,
  START as ESDB_START,
  StreamNotFoundError,
  WrongExpectedVersionError,
  excludeSystemEvents,
  jsonEvent,
  metastreamOf,
  type AllStreamResolvedEvent,
  type AppendExpectedRevision,
  type AppendResult as EsdbAppendResult,
  type EventData,
  type Position,
  type ReadAllOptions as EsdbReadAllOptions,
  type ReadPosition,
  type ReadStreamOptions,
  type ResolvedEvent,
} from '@eventstore/db-client';
import { validateAppend } from '../appendRequest.js';
import { IdempotentRetryMismatch, originalResultOfRetry, type StoredCopy } from '../idempotentRetry.js';
import {
  AppendOutcomeUnknown,
  EventStoreUnavailable,
  InvalidPosition,
  START,
  WrongExpectedVersion,
  streamEvents,
  type AppendOptions,
  type AppendResult,
  type CallOptions,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type ReadAllOptions,
  type RecordedEvent,
  type StreamEvents,
  type SubscribeAllOptions,
} from '../port.js';
import { collectRead } from './boundedRead.js';
import { closeEsdbClient, throwsOnAppendFailure, type EsdbClient, type EsdbSubscription } from './esdbClient.js';
import { isAppendOutcomeUnknown, isInvalidPositionError, translateEsdbError } from './esdbErrors.js';
import { numericPositionOf, readPositionOf, safeNumberOf } from './esdbPosition.js';
import { readUntilAborted, type SourceOutcome } from './readUntilAborted.js';
import { ESDB_INTEGRITY } from './esdbIntegrity.js';

const DEFAULT_READ_LIMIT = 1000;
/** Raw $all records fetched per round trip when system events must be skipped over. */
const PAGE_SIZE = 500;
/**
 * Records read back from a stream to find re-sent event ids: a retry's copies sit just before the
 * expected revision it repeats, or at the stream's end. Bounded, because the sequence streams
 * that number loans grow all year and every conflict on them would otherwise read all of it.
 */
export const ID_LOOKUP_WINDOW = 64;
/** How much longer than the append's deadline the adapter waits for the server's answer (the server's "timed out" needs time to arrive). */
const APPEND_GRACE = 1.2;
/** The stream whose metadata holds this store's id (`$$honeylend-store`: a system stream, in no read). */
const STORE_ID_STREAM = 'honeylend-store';
const STORE_ID_KEY = 'honeylendStoreId';

export interface EsdbEventStoreOptions {
  /** Longest silence of a read (a stream, a page of $all) before it is cancelled and fails with EventStoreUnavailable. Default 5 s. */
  readIdleTimeoutMs?: number;
  /** The append's deadline; an append unanswered by then has its outcome settled (see append). Default 5 s. */
  appendTimeoutMs?: number;
  /** Longest wait for ping, and so for open(). Default 5 s. */
  pingTimeoutMs?: number;
  /** Longest wait for the server to confirm a new $all subscription. Default 5 s. */
  subscribeTimeoutMs?: number;
}

type AnyResolvedEvent = ResolvedEvent | AllStreamResolvedEvent;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);
}

/**
 * The port's view of an EventStoreDB record, or null for what the port does not carry: the
 * server's own streams and events (`$` names: statistics, metadata, links, projections' output)
 * and anything not written as a JSON object.
 */
function toRecordedEvent(resolved: AnyResolvedEvent): RecordedEvent | null {
  const event = resolved.event;
  if (!event || event.streamId.startsWith('$') || event.type.startsWith('$')) return null;
  if (!event.isJson || !isPlainObject(event.data)) return null;
  return {
    id: event.id,
    stream: event.streamId,
    type: event.type,
    data: event.data,
    metadata: isPlainObject(event.metadata) ? event.metadata : {},
    revision: Number(event.revision),
    position: numericPositionOf(event.position, event.id),
    createdAt: event.created.toISOString(),
  };
}

function toEsdbExpectedRevision(expected: ExpectedRevision): AppendExpectedRevision {
  if (expected === 'any') return ANY;
  if (expected === 'no_stream') return NO_STREAM;
  return BigInt(expected);
}

/** Where the given ids sit among a stream's records. */
function copiesIn(records: readonly ResolvedEvent[], ids: readonly string[]): StoredCopy[] {
  const wanted = new Set(ids);
  const found = new Map<string, StoredCopy>();
  for (const { event } of records) {
    if (!event || !wanted.has(event.id)) continue;
    found.set(event.id, { id: event.id, stream: event.streamId, revision: Number(event.revision), position: numericPositionOf(event.position, event.id) });
  }
  return [...found.values()];
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message || error.name : String(error);
}

/** Resolves once the server has confirmed the subscription (or the signal aborted); rejects if it fails, ends, or stays silent. */
function confirmationOf(subscription: EsdbSubscription, timeoutMs: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    // eslint-disable-next-line prefer-const -- finish() reads it (clearTimeout) before the one assignment below can run
    let timer: NodeJS.Timeout | undefined;
    const finish = (outcome: () => void) => {
      clearTimeout(timer);
      subscription.off('confirmation', onConfirmed).off('error', onError).off('end', onEnd).off('close', onEnd);
      signal?.removeEventListener('abort', onConfirmed);
      outcome();
    };
    const onConfirmed = () => finish(resolve);
    const onError = (error: unknown) => finish(() => reject(error));
    const onEnd = () => finish(() => reject(new EventStoreUnavailable('EventStoreDB ended the $all subscription before confirming it')));
    subscription.on('confirmation', onConfirmed).on('error', onError).on('end', onEnd).on('close', onEnd);
    signal?.addEventListener('abort', onConfirmed);
    timer = setTimeout(() => onError(new EventStoreUnavailable(`EventStoreDB did not confirm the $all subscription within ${timeoutMs} ms`)), timeoutMs);
  });
}

/**
 * The event store on EventStoreDB (`esdb://host:2113?tls=false`), through @eventstore/db-client.
 * See esdbPosition.ts for how global positions map onto EventStoreDB's log positions.
 */
export class EsdbEventStore implements EventStore {
  readonly kind = 'esdb';
  readonly integrity = ESDB_INTEGRITY;
  /** A position is an offset into the server's log, so the distance between two is bytes, not events. */
  readonly positionUnit = 'bytes';
  private readonly readIdleTimeoutMs: number;
  private readonly appendTimeoutMs: number;
  private readonly pingTimeoutMs: number;
  private readonly subscribeTimeoutMs: number;
  private closed = false;
  private storeIdLookup: Promise<string> | null = null;

  private constructor(
    private readonly client: EsdbClient,
    private readonly closeClient: () => Promise<void>,
    { readIdleTimeoutMs = 5000, appendTimeoutMs = 5000, pingTimeoutMs = 5000, subscribeTimeoutMs = 5000 }: EsdbEventStoreOptions,
  ) {
    this.readIdleTimeoutMs = readIdleTimeoutMs;
    this.appendTimeoutMs = appendTimeoutMs;
    this.pingTimeoutMs = pingTimeoutMs;
    this.subscribeTimeoutMs = subscribeTimeoutMs;
  }

  /**
   * Connects and checks that the server answers, within the ping timeout. Refuses
   * `throwOnAppendFailure=false`, with which the client answers a conflicting append as a success.
   */
  static async open(url: string, options: EsdbEventStoreOptions = {}): Promise<EsdbEventStore> {
    const client = EventStoreDBClient.connectionString(url);
    if (!throwsOnAppendFailure(client)) {
      throw new TypeError('throwOnAppendFailure=false in the EventStoreDB connection string is not supported (conflicts would pass as written): remove it');
    }
    const store = EsdbEventStore.over(client, { ...options, close: () => closeEsdbClient(client) });
    try {
      await store.ping();
    } catch (error) {
      await store.close().catch(() => undefined);
      throw error;
    }
    return store;
  }

  /**
   * The adapter over a client already made: open() gives it the real one, the tests a fake of its
   * calls. `close` ends the client (default: dispose it).
   */
  static over(client: EsdbClient, { close = () => client.dispose(), ...options }: EsdbEventStoreOptions & { close?: () => Promise<void> } = {}): EsdbEventStore {
    return new EsdbEventStore(client, close, options);
  }

  private assertOpen(): void {
    if (this.closed) throw new EventStoreUnavailable('the EventStoreDB event store is closed');
  }

  /**
   * EventStoreDB itself recognises a retry only in some cases: when the stream has moved past the
   * expected revision, it compares the events there with the new ones; when the stream is exactly
   * at the expected revision it appends without looking at ids, so ids already stored would be
   * stored twice. So before an append at a revision (or with 'any') the adapter reads the records
   * just before that place (a bounded window, from the leader): re-sent ids there are a retry,
   * answered with the original result, or a mismatch, refused. A refused append looks the same
   * way before reporting the conflict, because a retry whose first attempt moved the stream on
   * must still answer with the original result. An append that goes unanswered is settled
   * before anything is reported (see settle).
   */
  async append(stream: string, events: NewEvent[], { expectedRevision }: AppendOptions): Promise<AppendResult> {
    const validated = validateAppend(stream, events, expectedRevision);
    this.assertOpen();
    const ids = validated.map((event) => event.id);
    const proposed = validated.map(({ id, type, data, metadata }) => jsonEvent({ id, type, data, metadata }));
    if (expectedRevision !== 'no_stream') {
      const before = await this.readRecords(
        stream,
        { fromRevision: expectedRevision === 'any' ? END : BigInt(expectedRevision), direction: BACKWARDS, maxCount: ID_LOOKUP_WINDOW, requiresLeader: true },
        `looking for re-sent events in ${stream}`,
      );
      const retried = originalResultOfRetry(stream, ids, copiesIn(before, ids));
      if (retried) return retried;
    }
    return this.send(stream, ids, proposed, expectedRevision, null);
  }

  /**
   * `earlierFailure`: set when this is the same append sent again after the first went unanswered.
   * Once an append may have been written, no failure after it may say "not written"
   * (EventStoreUnavailable): a read that fails while settling it makes the outcome unknown.
   */
  private async send(stream: string, ids: string[], proposed: EventData[], expectedRevision: ExpectedRevision, earlierFailure: unknown): Promise<AppendResult> {
    const unknownIfUnreadable = (error: unknown, what: string): never => {
      if (error instanceof EventStoreUnavailable) throw new AppendOutcomeUnknown(stream, `append to ${stream} ${what}: ${messageOf(error)}`, { cause: error });
      throw error;
    };
    let result: EsdbAppendResult;
    try {
      result = await this.appendWithin(stream, proposed, expectedRevision);
    } catch (error) {
      if (error instanceof WrongExpectedVersionError) {
        const conflict = this.retryOrConflict(stream, ids, expectedRevision, error.actualVersion === NO_STREAM ? 'no_stream' : Number(error.actualVersion));
        if (earlierFailure === null) return conflict;
        return conflict.catch((lookupFailure: unknown) => unknownIfUnreadable(lookupFailure, 'sent again was refused, and the stream could not be read to see whether the first attempt was written'));
      }
      if (!isAppendOutcomeUnknown(error)) throw translateEsdbError(error);
      if (earlierFailure !== null) {
        throw new AppendOutcomeUnknown(
          stream,
          `append to ${stream} not confirmed: EventStoreDB did not answer it (${messageOf(earlierFailure)}), nor the same append sent again (${messageOf(error)}); it may or may not be written`,
          { cause: error },
        );
      }
      return this.settle(stream, ids, proposed, expectedRevision, error);
    }
    // A conflict comes back as `success: false` instead of an error when the client is set not to
    // throw: open() refuses that setting, and this keeps a conflict from ever passing as written.
    if (!result.success) return this.retryOrConflict(stream, ids, expectedRevision, 'unknown');
    const nextRevision = Number(result.nextExpectedRevision);
    // A server-side idempotent retry may answer without a position (or with 0 on old servers).
    if (result.position && result.position.commit > 0n) return { nextRevision, position: safeNumberOf(result.position.commit, ids[ids.length - 1]) };
    const position = await this.positionOfRevision(stream, nextRevision).catch((error: unknown) => unknownIfUnreadable(error, 'is written, but its position could not be read back'));
    return { nextRevision, position };
  }

  /**
   * The client's batch append (used whenever the server offers it) hands the deadline to the
   * server and then waits for the server's answer, however long: a server that never answers
   * would hold the append forever. The timer bounds that wait.
   */
  private appendWithin(stream: string, proposed: EventData[], expectedRevision: ExpectedRevision): Promise<EsdbAppendResult> {
    const appending = this.client.appendToStream(stream, proposed, { expectedRevision: toEsdbExpectedRevision(expectedRevision), deadline: this.appendTimeoutMs });
    let timer: NodeJS.Timeout | undefined;
    const unanswered = new Promise<never>((_, reject) => {
      const waitedMs = Math.round(this.appendTimeoutMs * APPEND_GRACE);
      timer = setTimeout(() => reject(new DeadlineExceededError(undefined, `no answer to the append within ${waitedMs} ms`)), waitedMs);
    });
    return Promise.race([appending, unanswered]).finally(() => clearTimeout(timer));
  }

  /**
   * An append went unanswered (a timeout, a broken connection, a server-side cancel): its events
   * may be in the log already, or queued to get there. Reporting "not applied" would let the
   * caller decide again with new ids and write the same thing twice. So: look for the ids where
   * they would be, reading from the leader (found: the append happened, answer its result); else
   * send the same events with the same expected revision again, which EventStoreDB takes as a
   * retry of the first (written at most once); only if that goes unanswered too, give up with
   * AppendOutcomeUnknown, which nobody may retry with new ids.
   */
  private async settle(stream: string, ids: string[], proposed: EventData[], expectedRevision: ExpectedRevision, failure: unknown): Promise<AppendResult> {
    try {
      const retried = originalResultOfRetry(stream, ids, (await this.lookUp(stream, ids, expectedRevision)).copies);
      if (retried) return retried;
    } catch (error) {
      if (error instanceof IdempotentRetryMismatch) throw error;
      // The stream cannot be read either. Sending the same append again is still safe.
    }
    return this.send(stream, ids, proposed, expectedRevision, failure);
  }

  /** A refused append is a retry whose first attempt moved the stream on (answer the original result), or a conflict. */
  private async retryOrConflict(stream: string, ids: string[], expectedRevision: ExpectedRevision, actual: number | 'no_stream' | 'unknown'): Promise<AppendResult> {
    const { copies, revision } = await this.lookUp(stream, ids, expectedRevision);
    const retried = originalResultOfRetry(stream, ids, copies);
    if (retried) return retried;
    throw new WrongExpectedVersion(stream, expectedRevision, actual === 'unknown' ? revision : actual);
  }

  /**
   * Looks for ids in the stream's last ID_LOOKUP_WINDOW records, and, for an append at a revision
   * (or no_stream), also exactly where it would have put them if they lie further back. Reads from
   * the leader, which has every acknowledged write. Also answers the stream's current revision.
   */
  private async lookUp(stream: string, ids: string[], expectedRevision: ExpectedRevision): Promise<{ copies: StoredCopy[]; revision: number | 'no_stream' }> {
    const what = `looking for re-sent events in ${stream}`;
    const tail = await this.readRecords(stream, { fromRevision: END, direction: BACKWARDS, maxCount: ID_LOOKUP_WINDOW, requiresLeader: true }, what);
    const newest = tail[0]?.event;
    const oldest = tail[tail.length - 1]?.event;
    const records = [...tail];
    if (expectedRevision !== 'any' && oldest) {
      const slot = expectedRevision === 'no_stream' ? 0 : expectedRevision + 1;
      if (slot < Number(oldest.revision)) {
        records.push(...(await this.readRecords(stream, { fromRevision: BigInt(slot), direction: FORWARDS, maxCount: ids.length, requiresLeader: true }, what)));
      }
    }
    return { copies: copiesIn(records, ids), revision: newest ? Number(newest.revision) : 'no_stream' };
  }

  private async positionOfRevision(stream: string, revision: number): Promise<number> {
    const [record] = await this.readRecords(stream, { fromRevision: BigInt(revision), maxCount: 1, direction: FORWARDS, requiresLeader: true }, `reading back the append to ${stream}`);
    if (!record?.event) throw new Error(`EventStoreDB acknowledged an append to ${stream} at revision ${revision}, but that event cannot be read back`);
    return numericPositionOf(record.event.position, record.event.id);
  }

  /** A stream's records, those the port carries and those it does not; none when the stream does not exist. */
  private async readRecords(stream: string, options: ReadStreamOptions, what: string): Promise<ResolvedEvent[]> {
    this.assertOpen();
    try {
      return await collectRead<ResolvedEvent>(this.client.readStream(stream, options), { idleTimeoutMs: this.readIdleTimeoutMs, what });
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw error;
    }
  }

  /** The revision counts every record, so it is right to append after even when the stream holds records the port skips. */
  async readStream(stream: string): Promise<StreamEvents> {
    const records = await this.readRecords(stream, { fromRevision: ESDB_START, direction: FORWARDS }, `reading stream ${stream}`);
    const last = records[records.length - 1]?.event;
    return streamEvents(
      records.map(toRecordedEvent).filter((event) => event !== null),
      last ? Number(last.revision) : 'no_stream',
    );
  }

  /** One read of $all; a `from` that is no record of this log is InvalidPosition. */
  private async readAllRecords(options: EsdbReadAllOptions, from: number, signal?: AbortSignal): Promise<AllStreamResolvedEvent[]> {
    this.assertOpen();
    try {
      return await collectRead<AllStreamResolvedEvent>(this.client.readAll(options), { idleTimeoutMs: this.readIdleTimeoutMs, signal, what: 'reading $all' });
    } catch (error) {
      if (isInvalidPositionError(error)) throw new InvalidPosition(from, 'EventStoreDB has no record there', { cause: error });
      throw error;
    }
  }

  /**
   * Pages through $all (which also holds the server's own records, skipped here) until `limit`
   * events are found or the log ends. Each page starts at the last record of the one before,
   * inclusively, so records at or before the last one seen are dropped.
   */
  async readAll({ from = START, limit = DEFAULT_READ_LIMIT }: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    if (!Number.isSafeInteger(from) || from < 0) throw new TypeError(`from must be a non-negative integer, got ${String(from)}`);
    if (!Number.isSafeInteger(limit) || limit < 1) throw new TypeError(`limit must be a positive integer, got ${String(limit)}`);
    const events: RecordedEvent[] = [];
    let cursor: ReadPosition = readPositionOf(from);
    let lastSeen = { commit: BigInt(from), prepare: BigInt(from) };
    for (;;) {
      // One more than needed, since the first record of every page but the very first read may be the one already seen.
      const pageSize = Math.min(limit - events.length, PAGE_SIZE) + 1;
      const page = await this.readAllRecords({ fromPosition: cursor, maxCount: pageSize, direction: FORWARDS }, from);
      let progressed = false;
      for (const resolved of page) {
        const position = resolved.event?.position;
        if (!position || position.commit < lastSeen.commit || (position.commit === lastSeen.commit && position.prepare <= lastSeen.prepare)) continue;
        lastSeen = position;
        progressed = true;
        const event = toRecordedEvent(resolved);
        if (event) events.push(event);
        if (events.length === limit) return events;
      }
      // A full page that moved nothing forward would be read again forever.
      if (page.length < pageSize || !progressed) return events;
      cursor = lastSeen;
    }
  }

  /**
   * Subscriptions wait for live events as long as it takes, so they get no idle timeout: the
   * server must confirm a new one within subscribeTimeoutMs, and a connection that dies later is
   * found by the client's keep-alive pings (10 s interval, 10 s timeout) and ends the loop with
   * EventStoreUnavailable.
   */
  async *subscribeAll({ from = START, signal }: SubscribeAllOptions = {}): AsyncGenerator<RecordedEvent> {
    if (!Number.isSafeInteger(from) || from < 0) throw new TypeError(`from must be a non-negative integer, got ${String(from)}`);
    if (signal?.aborted) return;
    this.assertOpen();
    const subscription = this.client.subscribeToAll({ fromPosition: readPositionOf(from), filter: excludeSystemEvents() });
    // Errors are taken while iterating; this keeps one emitted during or after disposal from crashing the process.
    subscription.on('error', () => undefined);
    const outcome: { value: SourceOutcome } = { value: 'ended' };
    try {
      await confirmationOf(subscription, this.subscribeTimeoutMs, signal);
      let position = from;
      for await (const resolved of readUntilAborted<AllStreamResolvedEvent>(subscription, signal, outcome)) {
        const event = toRecordedEvent(resolved);
        if (!event || event.position <= position) continue;
        position = event.position;
        yield event;
      }
      // close() ends subscriptions the way the SQL adapters do: the loop simply finishes.
      if (outcome.value === 'ended' && !this.closed) throw new EventStoreUnavailable('EventStoreDB ended the $all subscription');
    } catch (error) {
      if (this.closed) return;
      if (isInvalidPositionError(error)) throw new InvalidPosition(from, 'EventStoreDB has no record there', { cause: error });
      throw translateEsdbError(error);
    } finally {
      await subscription.unsubscribe().catch(() => undefined);
      subscription.destroy();
    }
  }

  /** Walks $all backwards from the end past the server's own records to the newest event. */
  async headPosition({ signal }: CallOptions = {}): Promise<number> {
    let cursor: ReadPosition = END;
    for (;;) {
      const page = await this.readAllRecords({ fromPosition: cursor, maxCount: PAGE_SIZE, direction: BACKWARDS }, 0, signal);
      for (const resolved of page) {
        const event = toRecordedEvent(resolved);
        if (event) return event.position;
      }
      const oldest: Position | undefined = page[page.length - 1]?.event?.position;
      if (page.length < PAGE_SIZE || !oldest) return 0;
      cursor = oldest;
    }
  }

  async ping({ signal }: CallOptions = {}): Promise<void> {
    this.assertOpen();
    await collectRead(this.client.readAll({ fromPosition: END, direction: BACKWARDS, maxCount: 1 }), { idleTimeoutMs: this.pingTimeoutMs, signal, what: 'answering ping' });
  }

  /**
   * Kept in the metadata of the stream `honeylend-store` (the system stream
   * `$$honeylend-store`, which no read of the port returns), written once by the first process
   * that asks; a second process racing it finds the first one's id.
   */
  storeId(): Promise<string> {
    this.storeIdLookup ??= this.readOrCreateStoreId().catch((error: unknown) => {
      this.storeIdLookup = null;
      throw error;
    });
    return this.storeIdLookup;
  }

  private async readOrCreateStoreId(): Promise<string> {
    for (let attempt = 1; ; attempt++) {
      const [record] = await this.readRecords(metastreamOf(STORE_ID_STREAM), { fromRevision: END, direction: BACKWARDS, maxCount: 1, requiresLeader: true }, 'reading the store id');
      const stored = isPlainObject(record?.event?.data) ? record.event.data[STORE_ID_KEY] : undefined;
      if (typeof stored === 'string') return stored;
      if (record) throw new Error(`the metadata of stream ${STORE_ID_STREAM} holds no ${STORE_ID_KEY}: it was written by something else`);
      if (attempt > 3) throw new EventStoreUnavailable('EventStoreDB did not keep the store id it was given');
      try {
        await this.client.setStreamMetadata(STORE_ID_STREAM, { [STORE_ID_KEY]: randomUUID() }, { expectedRevision: NO_STREAM, deadline: this.appendTimeoutMs });
      } catch (error) {
        // Another process wrote its id first (a conflict), or the answer was lost: read what is there.
        if (!(error instanceof WrongExpectedVersionError) && !isAppendOutcomeUnknown(error)) throw translateEsdbError(error);
      }
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.closeClient();
  }
}
