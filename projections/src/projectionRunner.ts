import type { Redis } from 'ioredis';
import { InvalidEventError, isEventType, parseDomainEvent, type ReadModelKeys } from '@honeylend/contracts';
import type { EventStore, RecordedEvent } from '@honeylend/eventstore';
import type { ProjectedEvent, Projection } from './projection.js';
import { ReadModelTransaction } from './readModelTransaction.js';

export interface RunnerLogger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export interface ProjectionRunnerOptions {
  store: EventStore;
  /** A connection of its own: WATCH state is per connection. */
  redis: Redis;
  keys: ReadModelKeys;
  projections: Projection[];
  logger: RunnerLogger;
  /** Most events per MULTI, catching up or live (live batches are whatever arrived while the last one was applied). */
  catchUpBatchSize?: number;
  /** Approximate length the change feed is trimmed to. */
  changeFeedMaxLength?: number;
  /** A rebuild writes no change-feed entries and announces no progress: nobody listens to its keys. */
  publishChanges?: boolean;
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
 * One MULTI per batch writes the read-model changes, each projection's checkpoint, the overall
 * checkpoint and the change-feed entries, guarded by WATCH on the checkpoints: if another runner
 * moved them first, the batch is recomputed from the new checkpoints, so nothing applies twice.
 */
export class ProjectionRunner {
  private readonly catchUpBatchSize: number;
  private readonly changeFeedMaxLength: number;

  constructor(private readonly options: ProjectionRunnerOptions) {
    this.catchUpBatchSize = options.catchUpBatchSize ?? 500;
    this.changeFeedMaxLength = options.changeFeedMaxLength ?? 100_000;
  }

  private checkpointKeys(): string[] {
    return this.options.projections.map((p) => this.options.keys.projectionCheckpoint(p.name));
  }

  /** The position every projection has applied (0 when none has run). */
  async checkpoint(): Promise<number> {
    const values = await this.options.redis.mget(...this.checkpointKeys());
    return Math.min(...values.map((v) => Number(v ?? 0)));
  }

  async applyBatch(events: RecordedEvent[]): Promise<BatchResult> {
    if (events.length === 0) return { applied: 0, skipped: 0 };
    const { redis, keys, projections } = this.options;
    for (;;) {
      const checkpointKeys = this.checkpointKeys();
      await redis.watch(...checkpointKeys);
      const checkpoints = (await redis.mget(...checkpointKeys)).map((v) => Number(v ?? 0));
      const tx = new ReadModelTransaction(redis);
      if (events.length > 1) await tx.prefetch(events.flatMap((recorded) => documentKeysOf(recorded, keys)));
      let applied = 0;
      for (const recorded of events) {
        const pending = projections.filter((_, i) => recorded.position > checkpoints[i]!);
        if (pending.length === 0) continue;
        applied++;
        const event = this.validated(recorded);
        if (!event) continue;
        for (const projection of pending) await projection.apply(event, tx, keys);
      }
      if (applied === 0) {
        await redis.unwatch();
        return { applied: 0, skipped: events.length };
      }
      const last = events[events.length - 1]!.position;
      const multi = redis.multi();
      tx.queueWrites(multi);
      const changes = this.options.publishChanges === false ? [] : tx.changes;
      for (const change of changes) {
        multi.xadd(
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
        );
      }
      checkpointKeys.forEach((key, i) => multi.set(key, String(Math.max(checkpoints[i]!, last))));
      multi.set(keys.checkpoint, String(last));
      if (this.options.publishChanges !== false) multi.publish(keys.progressChannel, String(last));
      const results = await multi.exec();
      if (results === null) continue; // another runner moved a checkpoint: recompute from the new ones
      const failed = results.find(([error]) => error);
      if (failed) throw failed[0];
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
      return { ...event, position: recorded.position, stream: recorded.stream, createdAt: recorded.createdAt, metadata: recorded.metadata };
    } catch (error) {
      if (error instanceof InvalidEventError) error.message = `${error.message} (at position ${recorded.position})`;
      throw error;
    }
  }

  /** Applies everything after the checkpoint in batches until the log has nothing more; returns the position reached. */
  async catchUp(signal?: AbortSignal, onBatch?: (position: number, events: number) => void): Promise<number> {
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
      const last = batch[batch.length - 1]!.position;
      next = read(last);
      await this.applyBatch(batch);
      position = last;
      onBatch?.(position, batch.length);
    }
  }

  /**
   * Catches up in batches, then follows the live log until the signal aborts. Live events are read
   * ahead while a batch is being applied, and the next batch takes every event that arrived
   * meanwhile: one event alone when the log is quiet (no added latency), but under load one WATCH
   * and one MULTI for many events instead of a round of Redis round trips each (a runner applying
   * events one at a time topped out near 300 a second and held every command's answer back).
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
    if (readerError) throw readerError;
  }
}
