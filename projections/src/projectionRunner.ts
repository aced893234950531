import type { Redis } from 'ioredis';
import { metrics, secondsSince } from '@honeylend/observability';
import { InvalidEventError, isEventType, parseDomainEvent, type ReadModelKeys } from '@honeylend/contracts';
import { storeIdentityOf, type EventStore, type RecordedEvent } from '@honeylend/eventstore';
import type { ProjectedEvent, Projection } from './projection.js';
import { writeIfCheckpointsUnchanged } from './checkpointGuardedWrite.js';
import { LeadershipLost, type LeaderLease } from './leaderLease.js';
import { ReadModelsOfAnotherStore } from './readModelsOfAnotherStore.js';
import { ReadModelTransaction } from './readModelTransaction.js';

export interface RunnerLogger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  /** One line per projected event (with its request id), when the logger has a debug level and it is on. */
  debug?(message: string, fields?: Record<string, unknown>): void;
  isLevelEnabled?(level: 'debug'): boolean;
}

const eventsApplied = metrics.counter({
  name: 'honeylend_projection_events_total',
  help: 'Events the projections applied to the read models (a replayed event every projection had already applied is not counted)',
});
const batchSeconds = metrics.histogram({
  name: 'honeylend_projection_batch_duration_seconds',
  help: 'Time to apply one batch of events to Redis (read the documents, compute, write them in one script)',
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
});

/** The request an event was appended by (metadata.requestId), when there was one. */
function requestIdOf(recorded: RecordedEvent): string | undefined {
  const requestId = recorded.metadata.requestId;
  return typeof requestId === 'string' ? requestId : undefined;
}

export interface ProjectionRunnerOptions {
  store: EventStore;
  redis: Redis;
  keys: ReadModelKeys;
  projections: Projection[];
  logger: RunnerLogger;
  /** Most events per atomic write, catching up or live (live batches are whatever arrived while the last one was applied). */
  catchUpBatchSize?: number;
  /** Approximate length the change feed is trimmed to. */
  changeFeedMaxLength?: number;
  /** A rebuild writes no change-feed entries and announces no progress: nobody listens to its keys. */
  publishChanges?: boolean;
  /**
   * When several runners follow one log: every batch is written only while this lease still holds
   * the token it was taken with (checked by Redis in the same script), else LeadershipLost.
   */
  fence?: LeaderLease;
}

export interface BatchResult {
  /** Events at least one projection had not seen yet. */
  applied: number;
  /** Events every projection had already applied (a replay), which changed nothing. */
  skipped: number;
}

/**
 * The documents an event's projections are likely to read, from the ids it carries (a member's,
 * a loan's, a withdrawal's, an admin's). Only a guess for reading ahead: a key no projection reads
 * costs a slot in one MGET, and a key missed is read when asked for.
 */
function documentKeysOf(recorded: RecordedEvent, keys: ReadModelKeys): string[] {
  const data = recorded.data as { memberId?: unknown; loanId?: unknown; withdrawalId?: unknown; adminId?: unknown };
  const found: string[] = [];
  if (typeof data.memberId === 'string') found.push(keys.member(data.memberId));
  if (typeof data.loanId === 'string') found.push(keys.loan(data.loanId));
  if (typeof data.withdrawalId === 'string') found.push(keys.withdrawal(data.withdrawalId));
  if (typeof data.adminId === 'string') found.push(keys.admin(data.adminId));
  return found;
}

/**
 * Follows the store's global log and applies each event to every projection that has not seen it.
 * One atomic script per batch writes the read-model changes, each projection's checkpoint, the
 * overall checkpoint and the change-feed entries, only if the checkpoints are still those the batch
 * was computed from: if another runner moved them first, or the same batch already ran (its answer
 * lost to a dropped connection and the script re-sent), it is recomputed from the new checkpoints,
 * so nothing applies twice.
 */
export class ProjectionRunner {
  private readonly catchUpBatchSize: number;
  private readonly changeFeedMaxLength: number;
  /** The store the read models belong to, once verifyStore() has checked it; every batch then checks it again. */
  private identity: string | null = null;

  constructor(private readonly options: ProjectionRunnerOptions) {
    this.catchUpBatchSize = options.catchUpBatchSize ?? 500;
    this.changeFeedMaxLength = options.changeFeedMaxLength ?? 100_000;
  }

  private checkpointKeys(): string[] {
    return this.options.projections.map((p) => this.options.keys.projectionCheckpoint(p.name));
  }

  /** The store identity this runner verified (null before verifyStore). */
  get storeIdentity(): string | null {
    return this.identity;
  }

  /**
   * Checks, before anything is applied, that the read models' checkpoints are positions of this
   * store: the identity they record (adapter and store id) must be this store's, and no
   * checkpoint may lie past the end of its log (a store restored from an older copy keeps its id).
   * Fresh read models record this store's identity. Read models from before identities were
   * recorded are taken as this store's when their checkpoints fit in its log. Throws
   * ReadModelsOfAnotherStore otherwise.
   */
  async verifyStore(): Promise<void> {
    const { store, redis, keys, logger } = this.options;
    const identity = await storeIdentityOf(store);
    const [recorded, ...checkpoints] = await redis.mget(keys.storeIdentity, keys.checkpoint, ...this.checkpointKeys());
    if (recorded !== null && recorded !== identity) {
      throw new ReadModelsOfAnotherStore(`The read models were built from event store ${recorded}, but this is event store ${identity}`);
    }
    const furthest = Math.max(0, ...checkpoints.map((value) => Number(value ?? 0)));
    if (furthest > 0) {
      const head = await store.headPosition();
      if (furthest > head) {
        throw new ReadModelsOfAnotherStore(
          `The read models are at position ${furthest}, past the end of event store ${identity} (its newest event is at ${head}): it was restored from an older copy, or is another store`,
        );
      }
    }
    if (recorded === null) {
      if (furthest > 0) logger.warn('read models recorded no event store; taking them as built from this one, whose log they fit', { identity, checkpoint: furthest });
      // NX: should another runner have recorded a store meanwhile, its record stands and is compared.
      if ((await redis.set(keys.storeIdentity, identity, 'NX')) === null) {
        const winner = await redis.get(keys.storeIdentity);
        if (winner !== identity) throw new ReadModelsOfAnotherStore(`The read models were built from event store ${winner}, but this is event store ${identity}`);
      }
    }
    this.identity = identity;
  }

  /** The position every projection has applied (0 when none has run). */
  async checkpoint(): Promise<number> {
    const values = await this.options.redis.mget(...this.checkpointKeys());
    return Math.min(...values.map((v) => Number(v ?? 0)));
  }

  async applyBatch(events: RecordedEvent[]): Promise<BatchResult> {
    if (events.length === 0) return { applied: 0, skipped: 0 };
    const { redis, keys, projections, logger } = this.options;
    const started = process.hrtime.bigint();
    const traced = logger.isLevelEnabled?.('debug') === true;
    for (;;) {
      const checkpointKeys = this.checkpointKeys();
      // The store identity is guarded with the checkpoints: a replay from another store replaces both.
      const [recorded, ...stored] = await redis.mget(keys.storeIdentity, ...checkpointKeys);
      if (this.identity !== null && recorded !== null && recorded !== this.identity) {
        throw new ReadModelsOfAnotherStore(`The read models are now those of event store ${recorded}, but this runner reads event store ${this.identity}`);
      }
      const checkpoints = stored.map((v) => Number(v ?? 0));
      const tx = new ReadModelTransaction(redis);
      if (events.length > 1) await tx.prefetch(events.flatMap((recorded) => documentKeysOf(recorded, keys)));
      let applied = 0;
      /** The request id of the event behind each change (same index as tx.changes), for the sockets' log lines. */
      const changeRequestIds: (string | undefined)[] = [];
      for (const recorded of events) {
        const pending = projections.filter((_, i) => recorded.position > checkpoints[i]);
        if (pending.length === 0) continue;
        applied++;
        const event = this.validated(recorded);
        if (!event) continue;
        for (const projection of pending) await projection.apply(event, tx, keys);
        const requestId = requestIdOf(recorded);
        while (changeRequestIds.length < tx.changes.length) changeRequestIds.push(requestId);
      }
      if (applied === 0) return { applied: 0, skipped: events.length };
      const last = events[events.length - 1].position;
      const commands = tx.commands();
      const changes = this.options.publishChanges === false ? [] : tx.changes;
      changes.forEach((change, i) => {
        const requestId = changeRequestIds[i];
        commands.push([
          'XADD',
          keys.changes,
          'MAXLEN',
          '~',
          this.changeFeedMaxLength,
          '*',
          'event',
          change.event,
          'rooms',
          JSON.stringify(change.rooms),
          'version',
          String(change.version),
          'doc',
          JSON.stringify(change.doc),
          ...(requestId ? ['requestId', requestId] : []),
        ]);
      });
      checkpointKeys.forEach((key, i) => commands.push(['SET', key, String(Math.max(checkpoints[i], last))]));
      commands.push(['SET', keys.checkpoint, String(last)]);
      if (this.identity !== null && recorded === null) commands.push(['SET', keys.storeIdentity, this.identity]);
      if (this.options.publishChanges !== false) commands.push(['PUBLISH', keys.progressChannel(redis.options.db ?? 0), String(last)]);
      const guardedKeys = [...checkpointKeys, keys.storeIdentity];
      const expected = [...stored, recorded];
      const fence = this.options.fence;
      if (fence) {
        if (fence.token === null) throw new LeadershipLost('this runner does not hold the projection lease');
        guardedKeys.push(fence.key);
        expected.push(fence.token);
      }
      if (!(await writeIfCheckpointsUnchanged(redis, guardedKeys, expected, commands))) {
        if (fence && !(await fence.stillHeld())) throw new LeadershipLost('the projection lease expired or passed to another runner; nothing of this batch was written');
        // Another runner (or a rebuild's swap) moved a checkpoint or the store identity first: recompute from the new ones.
        continue;
      }
      eventsApplied.inc(applied);
      batchSeconds.observe(secondsSince(started));
      if (traced) {
        for (const event of events) {
          logger.debug?.('event projected', { requestId: requestIdOf(event), type: event.type, stream: event.stream, position: event.position });
        }
      }
      return { applied, skipped: events.length - applied };
    }
  }

  /** Unknown types (written by a newer version) are skipped with a warning; a malformed known event stops the runner. */
  private validated(recorded: RecordedEvent): ProjectedEvent | null {
    if (!isEventType(recorded.type)) {
      this.options.logger.warn('skipping event of unknown type', { type: recorded.type, position: recorded.position });
      return null;
    }
    try {
      const event = parseDomainEvent(recorded.type, recorded.data);
      return { ...event, position: recorded.position, stream: recorded.stream, revision: recorded.revision, createdAt: recorded.createdAt, metadata: recorded.metadata };
    } catch (error) {
      if (error instanceof InvalidEventError) error.message = `${error.message} (at position ${recorded.position})`;
      throw error;
    }
  }

  /**
   * Applies everything after the checkpoint in batches until the log has nothing more; returns the
   * position reached. Verifies first that the read models belong to this store (verifyStore).
   */
  async catchUp(signal?: AbortSignal, onBatch?: (position: number, events: number) => void): Promise<number> {
    await this.verifyStore();
    let position = await this.checkpoint();
    const read = (from: number) => {
      const reading = this.options.store.readAll({ from, limit: this.catchUpBatchSize });
      reading.catch(() => undefined); // awaited below; a read left behind by an abort or a failed batch must not be an unhandled rejection
      return reading;
    };
    // The next batch is read from the store while this one is applied to Redis: neither waits for the other.
    let next = read(position);
    for (;;) {
      if (signal?.aborted) return position;
      const batch = await next;
      if (batch.length === 0) return position;
      const last = batch[batch.length - 1].position;
      next = read(last);
      await this.applyBatch(batch);
      position = last;
      onBatch?.(position, batch.length);
    }
  }

  /**
   * Catches up in batches, then follows the live log until the signal aborts. Live events are read
   * ahead while a batch is being applied, and the next batch takes every event that arrived
   * meanwhile: one event alone when the log is quiet (no added latency), but under load one read
   * of the checkpoints and one atomic write for many events instead of a round of Redis round trips
   * each (a runner applying events one at a time topped out near 300 a second and held every
   * command's answer back).
   */
  async run(signal: AbortSignal): Promise<void> {
    const { store, logger } = this.options;
    logger.info('projections catching up', { from: await this.checkpoint() });
    const position = await this.catchUp(signal);
    if (signal.aborted) return;
    logger.info('projections live', { from: position });

    // Ends the reader when the applier fails, as leaving a for-await loop would.
    const reading = new AbortController();
    const stopReading = () => reading.abort();
    signal.addEventListener('abort', stopReading);
    const buffered: RecordedEvent[] = [];
    let readerDone = false;
    let readerError: unknown = null;
    // Each side sleeps on its own promise; the other side resolves it.
    const wake: { applier: (() => void) | null; reader: (() => void) | null } = { applier: null, reader: null };
    const reader = (async () => {
      try {
        for await (const event of store.subscribeAll({ from: position, signal: reading.signal })) {
          buffered.push(event);
          wake.applier?.();
          // Read no further ahead than one batch: memory stays bounded when Redis is slow.
          while (buffered.length >= this.catchUpBatchSize && !reading.signal.aborted) await new Promise<void>((resolve) => (wake.reader = resolve));
        }
      } catch (error) {
        readerError = error;
      } finally {
        readerDone = true;
        wake.applier?.();
      }
    })();
    try {
      while (!signal.aborted) {
        if (buffered.length === 0) {
          if (readerDone) break;
          await new Promise<void>((resolve) => (wake.applier = resolve));
          wake.applier = null;
          // The store hands a read's events over one microtask at a time: let the reader take all
          // of them before the batch is cut.
          await new Promise<void>((resolve) => setImmediate(resolve));
          continue;
        }
        const batch = buffered.splice(0, this.catchUpBatchSize);
        wake.reader?.();
        await this.applyBatch(batch);
      }
    } finally {
      stopReading();
      wake.reader?.();
      signal.removeEventListener('abort', stopReading);
      await reader;
    }
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- rethrows what the reader threw, as it was
    if (readerError) throw readerError;
  }
}
