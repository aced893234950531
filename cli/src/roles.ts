import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { readModelKeys } from '@honeylend/contracts';
import { AuditCheckpointer, instrumentEventStore, openEventStore, type EventStore } from '@honeylend/eventstore';
import { allProjections, ProjectionRunner, ReadModelsOfAnotherStore } from '@honeylend/projections';
import { startWorkers } from '@honeylend/workers';
import { startApiServer, startServicingJobs, type Logger } from '@honeylend/command-api';
import type { Config } from './config.js';
import { observeDayClose } from './metricsRole.js';
import { terminalProgress } from './progressBar.js';
import { auditSigningKey, trustedAuditKeys } from './audit/signingKeys.js';

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
    lateCharge: config.lateCharge,
    paymentWebhookSecret: config.paymentWebhookSecret,
    superadmin: config.superadmin,
    logger,
    auditTrustedKeys: trustedAuditKeys(config),
  });
  logger.info('api listening', { port: api.port, eventStore: store.kind });
  return { name: 'api', stop: () => api.close() };
}

/** How often stopped projections look again whether the read models have been rebuilt from this store. */
const ANOTHER_STORE_RECHECK_MS = 30_000;

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
        if (error instanceof ReadModelsOfAnotherStore) {
          // Nothing is applied until `lending replay` has rebuilt the read models from this store;
          // the check is repeated now and then, so the projections go on by themselves after it.
          logger.error(error.message, { checkAgainInMs: ANOTHER_STORE_RECHECK_MS });
          await sleep(ANOTHER_STORE_RECHECK_MS, undefined, { signal: controller.signal }).catch(() => undefined);
          continue;
        }
        logger.error('projections stopped; restarting from the checkpoint', {
          error: error instanceof Error ? error.message : String(error),
          retryInMs: pauseMs,
        });
        await new Promise((resolve) => setTimeout(resolve, pauseMs));
        pauseMs = Math.min(pauseMs * 2, 10_000);
      }
    }
  })();
  // The log's signed checkpoints (design §10) follow the log beside the projections.
  const checkpointer = new AuditCheckpointer({ store, signingKey: auditSigningKey(config), logger });
  const checkpointing = checkpointer.run(controller.signal);
  return {
    name: 'projections',
    async stop() {
      controller.abort();
      await Promise.all([running, checkpointing]);
      redis.disconnect();
    },
  };
}

/** The BullMQ workers: texts and rates (workers/), and the servicing day close and reminders, which decide on the event store. */
export async function startWorkersRole(config: Config, store: EventStore, logger: Logger): Promise<RunningRole> {
  const workers = await startWorkers({ redisUrl: config.redisUrl, keyPrefix: config.redisKeyPrefix, env: process.env, logger });
  const servicing = await startServicingJobs({ store, redisUrl: config.redisUrl, keyPrefix: config.redisKeyPrefix, logger, movableBusinessDate: config.devDefaults, onDayClose: observeDayClose });
  logger.info('workers running');
  return {
    name: 'workers',
    async stop() {
      await Promise.all([workers.close(), servicing.close()]);
    },
  };
}

/** Chaining a log written before the hash chain shows a progress bar from this size on. */
const CHAIN_MIGRATION_BAR_FROM = 10_000;

/** The store the roles use, every append timed for the metrics. */
export async function openStore(config: Config): Promise<EventStore> {
  const bar = terminalProgress();
  let total = 0;
  const store = await openEventStore(config.eventStoreUrl, {
    onChainMigration: ({ chained, total: all }) => {
      total = all;
      if (all >= CHAIN_MIGRATION_BAR_FROM) bar.update(chained / all, `chaining the log: ${chained} of ${all} events hashed`);
    },
  });
  if (total >= CHAIN_MIGRATION_BAR_FROM) bar.finish(1, `chaining the log: ${total} of ${total} events hashed`);
  return instrumentEventStore(store);
}
