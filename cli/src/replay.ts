import { Redis } from 'ioredis';
import type { EventStore } from '@honeylend/eventstore';
import { allProjections, rebuildReadModels } from '@honeylend/projections';
import type { Logger } from '@honeylend/command-api';
import type { Config } from './config.js';

const BAR_WIDTH = 30;

/** The share is of log positions covered, since on some stores positions are byte offsets, not event counts. */
function progressBar(events: number, position: number, head: number): string {
  const share = head > 0 ? Math.min(1, position / head) : 1;
  const filled = Math.round(share * BAR_WIDTH);
  return `[${'#'.repeat(filled)}${' '.repeat(BAR_WIDTH - filled)}] ${(share * 100).toFixed(0).padStart(3)}% ${events} events`;
}

/** `lending replay`: rebuild every read model from the log into fresh keys, then swap them in. */
export async function replay(config: Config, store: EventStore, logger: Logger): Promise<void> {
  const redis = new Redis(config.redisUrl, { maxRetriesPerRequest: null });
  const interactive = process.stderr.isTTY;
  let lastDrawn = 0;
  try {
    const result = await rebuildReadModels({
      store,
      redis,
      keyPrefix: config.redisKeyPrefix,
      projections: allProjections,
      logger,
      onProgress: (events, position, head) => {
        const now = Date.now();
        if (!interactive || now - lastDrawn < 100) return;
        lastDrawn = now;
        process.stderr.write(`\r${progressBar(events, position, head)}`);
      },
    });
    if (interactive) process.stderr.write(`\r${progressBar(result.events, 1, 1)}\n`);
    const rate = result.seconds > 0 ? Math.round(result.events / result.seconds) : result.events;
    process.stdout.write(
      `replayed ${result.events} events into ${result.keys} read-model keys in ${result.seconds.toFixed(1)} s (${rate} events/s), up to position ${result.position}\n`,
    );
  } finally {
    redis.disconnect();
  }
}
