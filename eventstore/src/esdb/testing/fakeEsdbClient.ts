import { randomUUID } from 'node:crypto';
import { PassThrough } from 'node:stream';
import {
  ANY,
  BACKWARDS,
  CancelledError,
  DeadlineExceededError,
  END,
  NO_STREAM,
  START,
  StreamNotFoundError,
  UnavailableError,
  UnknownError,
  WrongExpectedVersionError,
  metastreamOf,
  type AppendExpectedRevision,
  type AppendResult,
  type AppendToStreamOptions,
  type EventData,
  type Position,
  type ReadAllOptions,
  type ReadStreamOptions,
  type SetStreamMetadataOptions,
  type StreamMetadata,
  type SubscribeToAllOptions,
} from '@eventstore/db-client';
import type { EsdbClient, EsdbRead, EsdbSubscription } from '../esdbClient.js';

/*
 * A stand-in for EventStoreDB behind @eventstore/db-client 6.2.1, answering the adapter's few
 * calls the way the client documents them and the server (24.10) behaves, so the adapter's
 * handling of each answer can be tested where no server runs:
 * - appends: an expected revision equal to the stream's current one is written without looking
 *   at ids; past it, the events there are compared with the new ones (all the same: an
 *   idempotent success answered without a position; otherwise a conflict); 'any' recognises ids
 *   already in the stream; no_stream on an existing stream compares its first events.
 * - $all positions are byte offsets of records in a log that also holds the server's own records;
 *   reading $all from a place that is no record fails as the server does (INVALID_ARGUMENT
 *   "Trying to read from an invalid position.", passed on by the client as an UnknownError).
 * - reads and subscriptions can be stalled (accepted, never answered), appends can go unanswered
 *   or time out after writing or not, and every call is recorded.
 * It is a model for tests, not a server: nothing here is persisted or replicated.
 */

/** A record of the model's log, as the client hands it over. */
export interface FakeRecord {
  streamId: string;
  id: string;
  revision: bigint;
  type: string;
  data: unknown;
  metadata: unknown;
  isJson: boolean;
  created: Date;
  position: Position;
}

/** What an append meets instead of an answer. `written`: whether the server wrote the events anyway. */
export type AppendFault = { kind: 'server-timeout'; written: boolean } | { kind: 'connection-lost'; written: boolean } | { kind: 'server-cancel'; written: boolean } | { kind: 'silence'; written: boolean };

export class FakeRead extends PassThrough implements EsdbRead {
  cancelled = false;
  constructor(readonly request: { stream: string; options: ReadStreamOptions | ReadAllOptions }) {
    super({ objectMode: true });
  }
  async cancel(): Promise<void> {
    this.cancelled = true;
  }
}

export class FakeSubscription extends PassThrough implements EsdbSubscription {
  unsubscribed = false;
  constructor(readonly options: SubscribeToAllOptions) {
    super({ objectMode: true });
  }
  async unsubscribe(): Promise<void> {
    this.unsubscribed = true;
    if (!this.writableEnded) this.end();
  }
}

/** The server's refusal as the client passes it on: gRPC's ServiceError, wrapped in an UnknownError. */
const INVALID_POSITION = () =>
  new UnknownError(
    Object.assign(new Error('3 INVALID_ARGUMENT: Trying to read from an invalid position.'), { code: 3, details: 'Trying to read from an invalid position.' }) as unknown as ConstructorParameters<typeof UnknownError>[0],
  );

export class FakeEsdbClient implements EsdbClient {
  /** Every append asked for (setStreamMetadata included), in order. */
  readonly appends: Array<{ stream: string; ids: string[]; expectedRevision: AppendExpectedRevision; deadline: number | undefined }> = [];
  readonly reads: FakeRead[] = [];
  readonly subscriptions: FakeSubscription[] = [];
  disposeCalls = 0;
  /** While true, new reads and subscriptions are accepted and never answered. */
  stalled = false;
  /** Answer a conflict with `success: false` instead of an error, as the client set with throwOnAppendFailure=false does. */
  conflictsAsResults = false;
  private readonly log: FakeRecord[] = [];
  private nextOffset = 4096n;
  private readonly faults: AppendFault[] = [];
  private readonly readFailures: Error[] = [];

  constructor() {
    // A fresh server's log starts with records of its own.
    this.writeSystemRecord('$settings');
    this.writeSystemRecord('$users');
  }

  /** The next appends meet these, one each, instead of a plain answer. */
  failNextAppends(...faults: AppendFault[]): void {
    this.faults.push(...faults);
  }

  /** The next reads (of a stream or of $all) fail with these, one each. */
  failNextReads(...errors: Error[]): void {
    this.readFailures.push(...errors);
  }

  records(stream?: string): FakeRecord[] {
    return this.log.filter((record) => stream === undefined || record.streamId === stream);
  }

  /** A record the server writes for itself (statistics, settings): `$` streams and types. */
  writeSystemRecord(stream = '$stats-127.0.0.1:2113'): void {
    this.write(stream, [{ id: randomUUID(), type: '$statsCollected', data: {}, metadata: undefined, isJson: true }]);
  }

  /** An event another client wrote to a stream: binary, or of a `$` type. */
  writeForeign(stream: string, event: { type: string; isJson: boolean }): void {
    this.write(stream, [{ id: randomUUID(), type: event.type, data: event.isJson ? {} : new Uint8Array([1, 2, 3]), metadata: undefined, isJson: event.isJson }]);
  }

  async appendToStream(stream: string, events: EventData[], options: AppendToStreamOptions): Promise<AppendResult> {
    const expected = options.expectedRevision ?? ANY;
    this.appends.push({ stream, ids: events.map((event) => event.id), expectedRevision: expected, deadline: options.deadline });
    const fault = this.faults.shift();
    if (fault) {
      if (fault.written) {
        try {
          this.decide(stream, events, expected);
        } catch {
          // Written or refused, the client hears nothing of it.
        }
      }
      switch (fault.kind) {
        case 'server-timeout':
          throw new DeadlineExceededError();
        case 'connection-lost':
          throw new UnavailableError(undefined, '14 UNAVAILABLE: Connection dropped');
        case 'server-cancel':
          throw new CancelledError(undefined, '1 CANCELLED: Call cancelled by the server');
        case 'silence':
          return new Promise<never>(() => undefined);
      }
    }
    try {
      return this.decide(stream, events, expected);
    } catch (error) {
      if (this.conflictsAsResults && error instanceof WrongExpectedVersionError) {
        // What the batch append then resolves with: note the revision it makes up (BigInt(true)).
        return { success: false, nextExpectedRevision: 1n, position: undefined };
      }
      throw error;
    }
  }

  async setStreamMetadata(stream: string, metadata: StreamMetadata, options: SetStreamMetadataOptions): Promise<AppendResult> {
    return this.appendToStream(metastreamOf(stream), [{ id: randomUUID(), contentType: 'application/json', type: '$metadata', data: { ...metadata }, metadata: undefined }], options);
  }

  /** The server's decision on an append: written, an idempotent repeat, or a conflict (thrown). */
  private decide(stream: string, events: EventData[], expected: AppendExpectedRevision): AppendResult {
    const existing = this.records(stream);
    const current = existing.length === 0 ? -1n : existing[existing.length - 1].revision;
    const ids = events.map((event) => event.id);
    const sameAt = (from: number) => ids.every((id, i) => existing[from + i]?.id === id);
    const conflict = () => new WrongExpectedVersionError(undefined, { streamName: stream, expected: expected === ANY ? 'any' : expected, current: current < 0n ? 'no_stream' : current });
    const repeat = (from: number): AppendResult => ({ success: true, nextExpectedRevision: BigInt(from + ids.length - 1), position: undefined });
    if (expected === ANY) {
      const at = existing.findIndex((record) => record.id === ids[0]);
      if (at >= 0 && sameAt(at)) return repeat(at);
    } else if (expected === NO_STREAM) {
      if (current >= 0n) {
        if (sameAt(0)) return repeat(0);
        throw conflict();
      }
    } else if (expected === 'stream_exists') {
      if (current < 0n) throw conflict();
    } else if (current > expected) {
      if (sameAt(Number(expected) + 1)) return repeat(Number(expected) + 1);
      throw conflict();
    } else if (current < expected) {
      throw conflict();
    }
    const written = this.write(
      stream,
      events.map((event) => ({ id: event.id, type: event.type, data: event.data, metadata: event.metadata, isJson: event.contentType === 'application/json' })),
    );
    return { success: true, nextExpectedRevision: written[written.length - 1].revision, position: written[written.length - 1].position };
  }

  private write(stream: string, events: Array<{ id: string; type: string; data: unknown; metadata: unknown; isJson: boolean }>): FakeRecord[] {
    let revision = this.records(stream).length;
    const written = events.map((event) => {
      const offset = this.nextOffset;
      // Records take room in the log in proportion to their size, as prepares do.
      this.nextOffset += 120n + BigInt(JSON.stringify(event.data instanceof Uint8Array ? [...event.data] : event.data).length);
      return { streamId: stream, ...event, revision: BigInt(revision++), created: new Date(), position: { commit: offset, prepare: offset } };
    });
    this.log.push(...written);
    for (const record of written) for (const subscription of this.live) this.deliver(subscription, record);
    return written;
  }

  private readonly live = new Set<FakeSubscription>();

  private deliver(subscription: FakeSubscription, record: FakeRecord): void {
    if (subscription.writableEnded || record.type.startsWith('$')) return;
    subscription.write({ event: record, commitPosition: record.position.commit });
  }

  /** The log from `position` on (forwards, inclusive) or before it (backwards), or null when `position` is no record. */
  private around(position: Position | typeof START | typeof END, backwards: boolean): FakeRecord[] | null {
    if (position === START) return backwards ? [] : [...this.log];
    if (position === END) return backwards ? [...this.log].reverse() : [];
    if (!this.log.some((record) => record.position.commit === position.commit && record.position.prepare === position.prepare)) return null;
    return backwards ? this.log.filter((record) => record.position.commit < position.commit).reverse() : this.log.filter((record) => record.position.commit >= position.commit);
  }

  private answer(read: FakeRead, produce: () => unknown[]): FakeRead {
    this.reads.push(read);
    if (this.stalled) return read;
    const failure = this.readFailures.shift();
    setImmediate(() => {
      if (read.cancelled || read.destroyed) return;
      let items: unknown[];
      try {
        if (failure) throw failure;
        items = produce();
      } catch (error) {
        read.destroy(error as Error);
        return;
      }
      for (const item of items) read.write(item);
      read.end();
    });
    return read;
  }

  readStream(stream: string, options: ReadStreamOptions): EsdbRead {
    return this.answer(new FakeRead({ stream, options }), () => {
      const records = this.records(stream);
      if (records.length === 0) throw new StreamNotFoundError(undefined, stream);
      const from = options.fromRevision ?? START;
      const backwards = options.direction === BACKWARDS;
      let chosen: FakeRecord[];
      if (backwards) chosen = from === START ? [] : [...records].reverse().filter((record) => from === END || record.revision <= from);
      else chosen = from === END ? [] : records.filter((record) => from === START || record.revision >= from);
      return chosen.slice(0, Number(options.maxCount ?? Number.MAX_SAFE_INTEGER)).map((event) => ({ event }));
    });
  }

  readAll(options: ReadAllOptions): EsdbRead {
    return this.answer(new FakeRead({ stream: '$all', options }), () => {
      const chosen = this.around(options.fromPosition ?? START, options.direction === BACKWARDS);
      if (chosen === null) throw INVALID_POSITION();
      return chosen.slice(0, Number(options.maxCount ?? Number.MAX_SAFE_INTEGER)).map((event) => ({ event, commitPosition: event.position.commit }));
    });
  }

  subscribeToAll(options: SubscribeToAllOptions): EsdbSubscription {
    const subscription = new FakeSubscription(options);
    this.subscriptions.push(subscription);
    subscription.on('close', () => this.live.delete(subscription));
    if (this.stalled) return subscription;
    setImmediate(() => {
      if (subscription.writableEnded) return;
      const from = options.fromPosition ?? START;
      const after = this.around(from, false);
      if (after === null) {
        subscription.destroy(INVALID_POSITION());
        return;
      }
      subscription.emit('confirmation');
      for (const record of after) if (typeof from === 'string' || record.position.commit > from.commit) this.deliver(subscription, record);
      this.live.add(subscription);
    });
    return subscription;
  }

  /** As the client's: every read and subscription still open ends. */
  async dispose(): Promise<void> {
    this.disposeCalls++;
    for (const read of [...this.reads, ...this.subscriptions]) if (!read.writableEnded && !read.destroyed) read.end();
    this.live.clear();
  }
}
