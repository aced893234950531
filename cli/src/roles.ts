import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { readModelKeys } from '@honeylend/contracts';
import { openEventStore, type EventStore } from '@honeylend/eventstore';
import { allProjections, ProjectionRunner } from '@honeylend/projections';
import { startWorkers } from '@honeylend/workers';
import { startApiServer, type Logger } from '@honeylend/command-api';
import type { Config } from './config.js';

/** Something running that must be stopped on shutdown. */
export interface RunningRole {
  name: string;
  stop(): Promise<void>;
}

const WEB_ROOT = fileURLToPath(new URL('../../web/dist/', import.meta.url));

export async function startApiRole(config: Config, store: EventStore, logger: Logger): Promise<RunningRole> {
  const webRoot = existsSync(WEB_ROOT) ? WEB_ROOT : undefined;
  if (!webRoot) logger.warn('web app is not built; serving the API only (run `npm run build`)');
  const api = await startApiServer({
    store,
    redisUrl: config.redisUrl,
    keyPrefix: config.redisKeyPrefix,
    jwtSecret: config.jwtSecret,
    uploadDir: config.uploadDir,
    port: config.port,
    webRoot,
    monthlyRateBps: config.loanMonthlyRateBps,
    superadmin: config.superadmin,
    logger,
  });
  logger.info('api listening', { port: api.port, eventStore: store.kind });
  return { name: 'api', stop: () => api.close() };
}

/**
 * Runs the projections until stopped. If the store or Redis fails underneath, the runner is
 * restarted from its checkpoint after a growing pause: the checkpoint makes a restart safe.
 */
export async function startProjectionsRole(config: Config, store: EventStore, logger: Logger): Promise<RunningRole> {
  const redis = new Redis(config.redisUrl, { maxRetriesPerRequest: null });
  const runner = new ProjectionRunner({ store, redis, keys: readModelKeys(config.redisKeyPrefix), projections: allProjections, logger });
  const controller = new AbortController();
  const running = (async () => {
    let pauseMs = 500;
    while (!controller.signal.aborted) {
      try {
        await runner.run(controller.signal);
        pauseMs = 500;
      } catch (error) {
        if (controller.signal.aborted) break;
        logger.error('projections stopped; restarting from the checkpoint', {
          error: error instanceof Error ? error.message : String(error),
          retryInMs: pauseMs,
        });
        await new Promise((resolve) => setTimeout(resolve, pauseMs));
        pauseMs = Math.min(pauseMs * 2, 10_000);
      }
    }
  })();
  return {
    name: 'projections',
    async stop() {
      controller.abort();
      await running;
      redis.disconnect();
    },
  };
}

export async function startWorkersRole(config: Config, logger: Logger): Promise<RunningRole> {
  const workers = await startWorkers({ redisUrl: config.redisUrl, keyPrefix: config.redisKeyPrefix, env: process.env, logger });
  logger.info('workers running');
  return { name: 'workers', stop: () => workers.close() };
}

export async function openStore(config: Config): Promise<EventStore> {
  return openEventStore(config.eventStoreUrl);
}
