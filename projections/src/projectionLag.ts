import type { Redis } from 'ioredis';
import type { ReadModelKeys } from '@honeylend/contracts';
import type { EventStore } from '@honeylend/eventstore';
import { metrics } from '@honeylend/observability';
import type { Projection } from './projection.js';

export interface ProjectionLag {
  projection: string;
  /** The position the projection has applied. */
  checkpoint: number;
  /** Events in the log it has not applied yet. */
  events: number;
  /** How long the oldest of those has been waiting (0 when there is none). */
  seconds: number;
}

/** Past this many events behind, the lag is reported as this many on stores whose positions are not event counts. */
export const LAG_COUNT_LIMIT = 10_000;

/**
 * How far each projection is behind the log, read from the store and from the checkpoints in
 * Redis — not from the runner's memory, so it is right even when the runner is stopped or stuck
 * (which is when it matters). On the SQL stores positions are contiguous, so the distance in
 * positions is the number of events; elsewhere (EventStoreDB's positions are byte offsets) the
 * events are counted, up to LAG_COUNT_LIMIT.
 */
export async function projectionLag(options: { store: EventStore; redis: Redis; keys: ReadModelKeys; projections: readonly Projection[]; now?: () => Date }): Promise<ProjectionLag[]> {
  const { store, redis, keys, projections } = options;
  const now = (options.now ?? (() => new Date()))().getTime();
  const [head, values] = await Promise.all([store.headPosition(), redis.mget(...projections.map((p) => keys.projectionCheckpoint(p.name)))]);
  const contiguous = store.kind === 'pglite' || store.kind === 'postgres';
  // Projections usually share one checkpoint: each distinct one is looked up once.
  const behind = new Map<number, Promise<{ events: number; seconds: number }>>();
  const lagAfter = (checkpoint: number) => {
    let found = behind.get(checkpoint);
    if (!found) {
      found = (async () => {
        if (head <= checkpoint) return { events: 0, seconds: 0 };
        const pending = await store.readAll({ from: checkpoint, limit: contiguous ? 1 : LAG_COUNT_LIMIT });
        const oldest = pending[0];
        if (!oldest) return { events: 0, seconds: 0 };
        return { events: contiguous ? head - checkpoint : pending.length, seconds: Math.max(0, (now - Date.parse(oldest.createdAt)) / 1000) };
      })();
      behind.set(checkpoint, found);
    }
    return found;
  };
  return Promise.all(
    projections.map(async (projection, i) => {
      const checkpoint = Number(values[i] ?? 0);
      return { projection: projection.name, checkpoint, ...(await lagAfter(checkpoint)) };
    }),
  );
}

/**
 * The projections' gauges, read at every scrape: lag in events and in seconds per projection, and
 * the change feed's length. Any role with the store and Redis can serve them (the API does too:
 * a stopped projection runner cannot report its own lag). Returns the function that removes them.
 */
export function observeProjections(options: { store: EventStore; redis: Redis; keys: ReadModelKeys; projections: readonly Projection[] }): () => void {
  let reading: Promise<ProjectionLag[]> | null = null;
  // Both lag gauges are set from one read per scrape.
  const lag = () => {
    reading ??= projectionLag(options).finally(() => setTimeout(() => (reading = null), 0));
    return reading;
  };
  const removers = [
    metrics.observe({ name: 'honeylend_projection_lag_events', help: 'Events in the log a projection has not applied yet', labelNames: ['projection'] }, async (add) => {
      for (const { projection, events } of await lag()) add({ projection }, events);
    }),
    metrics.observe({ name: 'honeylend_projection_lag_seconds', help: 'How long the oldest event a projection has not applied has been in the log (0 when caught up)', labelNames: ['projection'] }, async (add) => {
      for (const { projection, seconds } of await lag()) add({ projection }, seconds);
    }),
    metrics.observe({ name: 'honeylend_change_feed_length', help: 'Entries in the change feed (rm:changes) the API nodes push to sockets from' }, async (add) => {
      add({}, await options.redis.xlen(options.keys.changes));
    }),
  ];
  return () => removers.forEach((remove) => remove());
}
