import type { Redis } from 'ioredis';
import { readModelKeys, type ReadModelKeys } from '@honeylend/contracts';
import type { EventStore } from '@honeylend/eventstore';
import type { Projection } from './projection.js';
import { ProjectionRunner, type RunnerLogger } from './projectionRunner.js';

export interface RebuildOptions {
  store: EventStore;
  /** A connection of its own (WATCH). */
  redis: Redis;
  /** The prefix of the live keyspace (REDIS_KEY_PREFIX). */
  keyPrefix: string;
  projections: Projection[];
  logger: RunnerLogger;
  /** Events applied so far, the position reached, and the log's head when the rebuild began. */
  onProgress?: (events: number, position: number, head: number) => void;
  batchSize?: number;
}

export interface RebuildResult {
  events: number;
  keys: number;
  position: number;
  seconds: number;
}

async function scanKeys(redis: Redis, pattern: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 5000);
    cursor = next;
    keys.push(...found);
  } while (cursor !== '0');
  return keys;
}

/**
 * Rebuilds every read model from position 0 into fresh keys, then swaps them in.
 * The swap happens only when no live projection is past the rebuilt position:
 * one MULTI, WATCHing the live checkpoints, renames the rebuilt keys over the live ones and
 * deletes live keys the rebuild did not produce. If the live projections moved meanwhile, the
 * rebuild catches up again and retries. The live change feed is kept: its entries stay valid.
 */
export async function rebuildReadModels(options: RebuildOptions): Promise<RebuildResult> {
  const started = Date.now();
  const { store, redis, keyPrefix, projections, logger } = options;
  const live = readModelKeys(keyPrefix);
  const rebuildPrefix = `${keyPrefix}rebuild-${Date.now()}:`;
  const fresh = readModelKeys(rebuildPrefix);
  const runner = new ProjectionRunner({
    store,
    redis,
    keys: fresh,
    projections,
    logger,
    publishChanges: false,
    catchUpBatchSize: options.batchSize ?? 1000,
  });
  let events = 0;
  const head = await store.headPosition();
  try {
    for (let attempt = 1; ; attempt++) {
      const position = await runner.catchUp(undefined, (reached, count) => {
        events += count;
        options.onProgress?.(events, reached, Math.max(head, reached));
      });
      const swapped = await swapIn(redis, live, fresh, projections, position, runner.storeIdentity!, () => store.headPosition());
      if (swapped !== null) return { events, keys: swapped, position, seconds: (Date.now() - started) / 1000 };
      if (attempt >= 20) throw new Error('the live projections kept moving; could not swap the rebuilt read models in');
      // The live projections got ahead of the rebuild: catch up again, then retry.
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    const leftovers = await scanKeys(redis, `${rebuildPrefix}*`);
    for (let i = 0; i < leftovers.length; i += 1000) await redis.del(...leftovers.slice(i, i + 1000));
  }
}

/**
 * Returns the number of keys swapped in, or null when a live projection is already past `position`.
 * A live projection behind `position` (or stopped) is fine: after the swap its checkpoint is
 * `position`, and its WATCH-guarded batch in flight, if any, fails and is recomputed from there.
 * Live read models of another store (`identity` differs, or none is recorded and their checkpoints
 * lie past this store's log) are replaced whatever their checkpoints say: those are positions of
 * the other store. A runner still applying that store's events finds the swapped-in identity and stops.
 */
async function swapIn(redis: Redis, live: ReadModelKeys, fresh: ReadModelKeys, projections: Projection[], position: number, identity: string, headPosition: () => Promise<number>): Promise<number | null> {
  const checkpointKeys = [live.checkpoint, ...projections.map((p) => live.projectionCheckpoint(p.name))];
  await redis.watch(...checkpointKeys, live.storeIdentity);
  const [liveIdentity, ...values] = await redis.mget(live.storeIdentity, ...checkpointKeys);
  const liveCheckpoints = values.map((v) => Number(v ?? 0));
  const ahead = liveCheckpoints.some((c) => c > position);
  const sameStore = liveIdentity === identity || (liveIdentity === null && (!ahead || Math.max(...liveCheckpoints) <= (await headPosition())));
  if (sameStore && ahead) {
    await redis.unwatch();
    return null;
  }
  const rebuilt = (await scanKeys(redis, `${fresh.prefix}*`)).filter((key) => key !== fresh.changes);
  const rebuiltLiveNames = new Set(rebuilt.map((key) => live.prefix + key.slice(fresh.prefix.length)));
  const stale = (await scanKeys(redis, `${live.prefix}*`)).filter((key) => key !== live.changes && !rebuiltLiveNames.has(key));
  const multi = redis.multi();
  for (const key of stale) multi.del(key);
  for (const key of rebuilt) multi.rename(key, live.prefix + key.slice(fresh.prefix.length));
  const results = await multi.exec();
  if (results === null) return null;
  const failed = results.find(([error]) => error);
  if (failed?.[0]) throw failed[0];
  return rebuilt.length;
}
