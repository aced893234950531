import {
  ANY,
  BACKWARDS,
  END,
  EventStoreDBClient,
  FORWARDS,
  NO_STREAM,
  START as ESDB_START,
  StreamNotFoundError,
  WrongExpectedVersionError,
  excludeSystemEvents,
  jsonEvent,
  type AllStreamResolvedEvent,
  type AppendExpectedRevision,
  type Position,
  type ReadPosition,
  type ResolvedEvent,
} from '@eventstore/db-client';
import { validateAppend } from '../appendRequest.js';
import { originalResultOfRetry, type StoredCopy } from '../idempotentRetry.js';
import {
  EventStoreUnavailable,
  START,
  WrongExpectedVersion,
  type AppendOptions,
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type ReadAllOptions,
  type RecordedEvent,
  type SubscribeAllOptions,
} from '../port.js';
import { translateEsdbError } from './esdbErrors.js';
import { numericPositionOf, readPositionOf, safeNumberOf } from './esdbPosition.js';
import { readUntilAborted, type SourceOutcome } from './readUntilAborted.js';

const DEFAULT_READ_LIMIT = 1000;
/** Raw $all records fetched per round trip when system events must be skipped over. */
const PAGE_SIZE = 500;
const PING_DEADLINE_MS = 5000;

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

async function drain<T>(source: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of source) items.push(item);
  return items;
}

/**
 * The event store on EventStoreDB (`esdb://host:2113?tls=false`), through @eventstore/db-client.
 * See esdbPosition.ts for how global positions map onto EventStoreDB's log positions.
 */
export class EsdbEventStore implements EventStore {
  readonly kind = 'esdb';

  private constructor(private readonly client: EventStoreDBClient) {}

  /** Connects and checks that the server answers. */
  static async open(url: string): Promise<EsdbEventStore> {
    const store = new EsdbEventStore(EventStoreDBClient.connectionString(url));
    try {
      await store.ping();
    } catch (error) {
      await store.close().catch(() => undefined);
      throw error;
    }
    return store;
  }

  /**
   * EventStoreDB recognises a retry itself when it comes with the original attempt's expected
   * revision (or no_stream) and the ids sit right after it; with 'any' it only consults a bounded
   * cache of recent ids. So 'any' appends look for the ids in the stream first, and a refused
   * append looks before reporting the conflict, because a retry whose first attempt moved the
   * stream on must still answer with the original result. One case stays EventStoreDB's own: an
   * expected revision equal to the current one is accepted without looking at ids, so re-sending
   * events the caller has already read back from the stream appends them again (a real retry never
   * does that: it repeats the revision of its first attempt, which is older than its own events).
   */
  async append(stream: string, events: NewEvent[], { expectedRevision }: AppendOptions): Promise<AppendResult> {
    const validated = validateAppend(stream, events, expectedRevision);
    const ids = validated.map((event) => event.id);
    try {
      if (expectedRevision === 'any') {
        const retried = originalResultOfRetry(stream, ids, await this.storedCopies(stream, ids));
        if (retried) return retried;
      }
      const result = await this.client.appendToStream(
        stream,
        validated.map(({ id, type, data, metadata }) => jsonEvent({ id, type, data, metadata })),
        { expectedRevision: toEsdbExpectedRevision(expectedRevision) },
      );
      const nextRevision = Number(result.nextExpectedRevision);
      // A server-side idempotent retry may answer without a position (or with 0 on old servers).
      const position = result.position && result.position.commit > 0n ? safeNumberOf(result.position.commit, ids[ids.length - 1]!) : await this.positionOfRevision(stream, nextRevision);
      return { nextRevision, position };
    } catch (error) {
      if (!(error instanceof WrongExpectedVersionError)) throw translateEsdbError(error);
      const retried = originalResultOfRetry(stream, ids, await this.storedCopies(stream, ids));
      if (retried) return retried;
      const actual = error.actualVersion === NO_STREAM ? 'no_stream' : Number(error.actualVersion);
      throw new WrongExpectedVersion(stream, expectedRevision, actual);
    }
  }

  private async storedCopies(stream: string, ids: readonly string[]): Promise<StoredCopy[]> {
    const wanted = new Set(ids);
    return (await this.readStream(stream))
      .filter((event) => wanted.has(event.id))
      .map((event) => ({ id: event.id, stream: event.stream, revision: event.revision, position: event.position }));
  }

  private async positionOfRevision(stream: string, revision: number): Promise<number> {
    const [event] = (await drain(this.client.readStream(stream, { fromRevision: BigInt(revision), maxCount: 1, direction: FORWARDS })))
      .map(toRecordedEvent)
      .filter((recorded) => recorded !== null);
    if (!event) throw new Error(`EventStoreDB acknowledged an append to ${stream} at revision ${revision}, but that event cannot be read back`);
    return event.position;
  }

  async readStream(stream: string): Promise<RecordedEvent[]> {
    try {
      const resolved = await drain(this.client.readStream(stream, { fromRevision: ESDB_START, direction: FORWARDS }));
      return resolved.map(toRecordedEvent).filter((event) => event !== null);
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw translateEsdbError(error);
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
    try {
      for (;;) {
        // One more than needed, since the first record of every page but the very first read may be the one already seen.
        const pageSize = Math.min(limit - events.length, PAGE_SIZE) + 1;
        const page = await drain(this.client.readAll({ fromPosition: cursor, maxCount: pageSize, direction: FORWARDS }));
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
    } catch (error) {
      throw translateEsdbError(error);
    }
  }

  async *subscribeAll({ from = START, signal }: SubscribeAllOptions = {}): AsyncGenerator<RecordedEvent> {
    if (!Number.isSafeInteger(from) || from < 0) throw new TypeError(`from must be a non-negative integer, got ${String(from)}`);
    if (signal?.aborted) return;
    const subscription = this.client.subscribeToAll({ fromPosition: readPositionOf(from), filter: excludeSystemEvents() });
    // Errors are taken while iterating; this keeps one emitted during or after disposal from crashing the process.
    subscription.on('error', () => undefined);
    const outcome: { value: SourceOutcome } = { value: 'ended' };
    try {
      let position = from;
      for await (const resolved of readUntilAborted<AllStreamResolvedEvent>(subscription, signal, outcome)) {
        const event = toRecordedEvent(resolved);
        if (!event || event.position <= position) continue;
        position = event.position;
        yield event;
      }
      if (outcome.value === 'ended') throw new EventStoreUnavailable('EventStoreDB ended the $all subscription');
    } catch (error) {
      throw translateEsdbError(error);
    } finally {
      await subscription.unsubscribe().catch(() => undefined);
      subscription.destroy();
    }
  }

  /** Walks $all backwards from the end past the server's own records to the newest event. */
  async headPosition(): Promise<number> {
    let cursor: ReadPosition = END;
    try {
      for (;;) {
        const page: AllStreamResolvedEvent[] = await drain(this.client.readAll({ fromPosition: cursor, maxCount: PAGE_SIZE, direction: BACKWARDS }));
        for (const resolved of page) {
          const event = toRecordedEvent(resolved);
          if (event) return event.position;
        }
        const oldest: Position | undefined = page[page.length - 1]?.event?.position;
        if (page.length < PAGE_SIZE || !oldest) return 0;
        cursor = oldest;
      }
    } catch (error) {
      throw translateEsdbError(error);
    }
  }

  async ping(): Promise<void> {
    try {
      await drain(this.client.readAll({ fromPosition: END, direction: BACKWARDS, maxCount: 1, deadline: PING_DEADLINE_MS }));
    } catch (error) {
      throw translateEsdbError(error);
    }
  }

  async close(): Promise<void> {
    await this.client.dispose();
  }
}
