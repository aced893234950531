import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { readModelKeys } from '@honeylend/contracts';
import { AuditCheckpointer, instrumentEventStore, openEventStore, type EventStore } from '@honeylend/eventstore';
import { allProjections, LeaderLease, LeadershipLost, ProjectionRunner, ReadModelsOfAnotherStore } from '@honeylend/projections';
import { metrics } from '@honeylend/observability';
import { startWorkers } from '@honeylend/workers';
import { startApiServer, startServicingJobs, startVerificationWorker, type Logger } from '@honeylend/command-api';
import type { Config } from './config.js';
import { observeDayClose } from './metricsRole.js';
import { terminalProgress } from './progressBar.js';
import { auditSigningKey, trustedAuditKeys } from './audit/signingKeys.js';
import { jwtSecretOf } from './devSecrets.js';

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
    jwtSecret: jwtSecretOf(config),
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
  // Never a log line (logs are kept and shipped): said once to whoever started the server, then forgotten.
  if (api.mainAdmin === 'created' && config.superadmin.generated) {
    process.stdout.write(`\nThe main admin "${config.superadmin.username}" was made with the password ${config.superadmin.password}\nIt is shown only this once: sign in at /admin-login and keep it safe.\n\n`);
  }
  return { name: 'api', stop: () => api.close() };
}

/** How often stopped projections look again whether the read models have been rebuilt from this store. */
const ANOTHER_STORE_RECHECK_MS = 30_000;

/** How often a standby runner asks for the lease. */
const STANDBY_POLL_MS = 500;

const projectionLeader = metrics.gauge({
  name: 'honeylend_projection_leader',
  help: 'Whether this projections process holds the lease and applies events (1) or stands by (0)',
});

/**
 * Runs the projections until stopped. Any number of these processes may run against one log: the
 * holder of the Redis lease applies events (its writes fenced by the lease's token), the others
 * stand by and take over when it dies or stops. If the store or Redis fails underneath, the leader
 * starts again from its checkpoint after a growing pause: the checkpoint makes a restart safe.
 */
export async function startProjectionsRole(config: Config, store: EventStore, logger: Logger): Promise<RunningRole> {
  const redis = new Redis(config.redisUrl, { maxRetriesPerRequest: null });
  const keys = readModelKeys(config.redisKeyPrefix);
  const lease = new LeaderLease({ redis, key: keys.projectionLeader, fenceKey: keys.projectionLeaderFence, ttlMs: config.projectionLeaseMs });
  const runner = new ProjectionRunner({ store, redis, keys, projections: allProjections, logger, fence: lease });
  const controller = new AbortController();
  const pause = (ms: number) => sleep(ms, undefined, { signal: controller.signal }).catch(() => undefined);
  const running = (async () => {
    let pauseMs = 500;
    let standingBy = false;
    while (!controller.signal.aborted) {
      try {
        if (!(await lease.tryAcquire())) {
          if (!standingBy) logger.info('projections standing by: another runner holds the lease');
          standingBy = true;
          await pause(STANDBY_POLL_MS);
          continue;
        }
      } catch (error) {
        logger.error('projections cannot reach Redis for the lease; trying again', { error: error instanceof Error ? error.message : String(error), retryInMs: pauseMs });
        await pause(pauseMs);
        pauseMs = Math.min(pauseMs * 2, 10_000);
        continue;
      }
      standingBy = false;
      projectionLeader.set(1);
      logger.info('projections leading', { fencingToken: lease.token });
      const leading = new AbortController();
      const stopLeading = () => leading.abort();
      controller.signal.addEventListener('abort', stopLeading);
      const renewing = renewWhileLeading(lease, leading, logger);
      let retryAfterMs = 0;
      try {
        await runner.run(leading.signal);
        pauseMs = 500;
      } catch (error) {
        if (controller.signal.aborted) break;
        if (error instanceof LeadershipLost) {
          logger.warn('projections lost the lease; standing by', { error: error.message });
        } else if (error instanceof ReadModelsOfAnotherStore) {
          // Nothing is applied until `lending replay` has rebuilt the read models from this store;
          // the check is repeated now and then, so the projections go on by themselves after it.
          logger.error(error.message, { checkAgainInMs: ANOTHER_STORE_RECHECK_MS });
          retryAfterMs = ANOTHER_STORE_RECHECK_MS;
        } else {
          logger.error('projections stopped; restarting from the checkpoint', {
            error: error instanceof Error ? error.message : String(error),
            retryInMs: pauseMs,
          });
          retryAfterMs = pauseMs;
          pauseMs = Math.min(pauseMs * 2, 10_000);
        }
      } finally {
        leading.abort();
        projectionLeader.set(0);
        controller.signal.removeEventListener('abort', stopLeading);
        await renewing;
        // Given up at once, so a standby (or this process after the pause) takes over without waiting out the lease.
        await lease.release().catch(() => undefined);
      }
      if (retryAfterMs > 0) await pause(retryAfterMs);
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

/**
 * Renews the lease three times per time to live while leading; stops leading when it is lost, or
 * when Redis could not be reached for longer than the lease lives (a standby may lead by then).
 */
async function renewWhileLeading(lease: LeaderLease, leading: AbortController, logger: Logger): Promise<void> {
  let renewedAt = Date.now();
  while (!leading.signal.aborted) {
    await sleep(lease.ttlMs / 3, undefined, { signal: leading.signal }).catch(() => undefined);
    if (leading.signal.aborted) return;
    try {
      if (!(await lease.renew())) {
        logger.warn('projections lost the lease (it expired, or another runner holds it); standing by');
        leading.abort();
        return;
      }
      renewedAt = Date.now();
    } catch (error) {
      if (Date.now() - renewedAt >= lease.ttlMs) {
        logger.warn('projections could not renew the lease in time; standing by', { error: error instanceof Error ? error.message : String(error) });
        leading.abort();
        return;
      }
    }
  }
}

/**
 * The BullMQ workers: texts and rates (workers/), and the servicing day close and reminders and the
 * auditors' verifications of the log, which read the event store.
 */
export async function startWorkersRole(config: Config, store: EventStore, logger: Logger): Promise<RunningRole> {
  const workers = await startWorkers({ redisUrl: config.redisUrl, keyPrefix: config.redisKeyPrefix, env: process.env, logger });
  const servicing = await startServicingJobs({ store, redisUrl: config.redisUrl, keyPrefix: config.redisKeyPrefix, logger, movableBusinessDate: config.devDefaults, onDayClose: observeDayClose });
  const verification = await startVerificationWorker({ store, redisUrl: config.redisUrl, keyPrefix: config.redisKeyPrefix, trustedKeys: trustedAuditKeys(config), logger, now: () => new Date() });
  logger.info('workers running');
  return {
    name: 'workers',
    async stop() {
      await Promise.all([workers.close(), servicing.close(), verification.close()]);
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
