import { Redis } from 'ioredis';
import { readModelKeys } from '@honeylend/contracts';
import type { EventStore } from '@honeylend/eventstore';
import { metrics, startMetricsServer, type Logger } from '@honeylend/observability';
import { allProjections, observeProjections } from '@honeylend/projections';
import type { Config } from './config.js';
import type { RunningRole } from './roles.js';

const dayCloseSeconds = metrics.histogram({
  name: 'honeylend_day_close_duration_seconds',
  help: 'How long one run of the servicing day close took (every active loan brought up to the business date)',
  buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300, 900],
});

/** The workers' day close reports its duration here (startServicingJobs' onDayClose). */
export function observeDayClose(_result: unknown, seconds: number): void {
  dayCloseSeconds.observe(seconds);
}

/**
 * Serves this process's metrics at GET /metrics on METRICS_PORT. A process that has the event store
 * (api, projections, start) also reports the projections' lag and the change feed's length, read
 * from the store and Redis at each scrape on a connection of its own that fails fast, so a scrape
 * during a Redis outage answers without those series instead of hanging.
 */
export async function startMetricsRole(config: Config, store: EventStore | null, logger: Logger): Promise<(RunningRole & { listening: { host: string; port: number } }) | null> {
  if (!config.metrics) return null;
  const redis = store ? new Redis(config.redisUrl, { maxRetriesPerRequest: 1, commandTimeout: 2_000, connectTimeout: 2_000 }) : null;
  redis?.on('error', () => undefined);
  const unobserve = store && redis ? observeProjections({ store, redis, keys: readModelKeys(config.redisKeyPrefix), projections: allProjections }) : () => undefined;
  const server = await startMetricsServer(config.metrics).catch((error: NodeJS.ErrnoException) => {
    redis?.disconnect();
    unobserve();
    // A plain Error: the caller's EADDRINUSE message names PORT, and this one is METRICS_PORT.
    throw new Error(error.code === 'EADDRINUSE' ? `METRICS_PORT ${config.metrics!.port} is already in use; set METRICS_PORT to a free port` : error.message);
  });
  logger.info('metrics listening', { host: server.host, port: server.port, path: '/metrics' });
  return {
    name: 'metrics',
    listening: { host: server.host, port: server.port },
    async stop() {
      await server.close();
      unobserve();
      redis?.disconnect();
    },
  };
}
