import { Redis } from 'ioredis';
import type { EventStore } from '@honeylend/eventstore';
import { allProjections, rebuildReadModels } from '@honeylend/projections';
import type { Logger } from '@honeylend/command-api';
import type { Config } from './config.js';
import { terminalProgress } from './progressBar.js';

/** `lending replay`: rebuild every read model from the log into fresh keys, then swap them in. */
export async function replay(config: Config, store: EventStore, logger: Logger): Promise<void> {
  const redis = new Redis(config.redisUrl, { maxRetriesPerRequest: null });
  const bar = terminalProgress();
  try {
    const result = await rebuildReadModels({
      store,
      redis,
      keyPrefix: config.redisKeyPrefix,
      projections: allProjections,
      logger,
      // The share is of log positions covered, since on some stores positions are byte offsets, not event counts.
      onProgress: (events, position, head) => bar.update(head > 0 ? position / head : 1, `${events} events`),
    });
    bar.finish(1, `${result.events} events`);
    const rate = result.seconds > 0 ? Math.round(result.events / result.seconds) : result.events;
    process.stdout.write(`replayed ${result.events} events into ${result.keys} read-model keys in ${result.seconds.toFixed(1)} s (${rate} events/s), up to position ${result.position}\n`);
  } finally {
    redis.disconnect();
  }
}
