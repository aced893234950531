import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { createJobKeys, JOB_NAMES, QUEUE_NAMES, readModelKeys } from '@honeylend/contracts';
import type { EventStore } from '@honeylend/eventstore';
import type { Logger } from '../../platform/logging/logger.js';
import { BusinessClock } from '../../platform/time/businessClock.js';
import { closeBusinessDays, dayCloseMetadata, type DayCloseResult } from './closeBusinessDays.js';
import { runDueWork } from './dueWork.js';

export interface ServicingJobsOptions {
  store: EventStore;
  redisUrl: string;
  keyPrefix?: string;
  logger: Logger;
  /** False in production: the business date follows the clock. */
  movableBusinessDate: boolean;
  now?: () => Date;
  /** Told how long each day close took (the metrics registry, where there is one). */
  onDayClose?: (result: DayCloseResult, seconds: number) => void;
}

export interface RunningServicingJobs {
  close(): Promise<void>;
}

const SCHEDULER_ID = 'servicing-hourly';
const KEEP_JOBS = { age: 7 * 24 * 3600, count: 500 };

/**
 * The servicing work BullMQ runs: every hour at :05 Manila time (a repeatable job, so two worker
 * processes share one schedule), and once when a worker starts (to catch up after an outage), the
 * day close opens every business date up to today for every active loan, then what falls due goes
 * out or lapses (reminders only between 08:00 and 20:00 Manila), all by the business clock. Each is
 * idempotent, so a run repeated after a crash, or one overlapping another, records nothing twice.
 */
export async function startServicingJobs(options: ServicingJobsOptions): Promise<RunningServicingJobs> {
  const { store, logger } = options;
  const now = options.now ?? (() => new Date());
  const jobKeys = createJobKeys(options.keyPrefix ?? '');
  const keys = readModelKeys(options.keyPrefix ?? '');
  const connection = new Redis(options.redisUrl, { maxRetriesPerRequest: null });
  const redis = new Redis(options.redisUrl, { maxRetriesPerRequest: null });
  const clock = new BusinessClock(redis, jobKeys.businessDateOverride, now, options.movableBusinessDate);
  const queueOptions = { connection, prefix: jobKeys.queuePrefix };
  const queue = new Queue(QUEUE_NAMES.servicing, queueOptions);
  const notificationQueue = new Queue(QUEUE_NAMES.notifications, queueOptions);

  const worker = new Worker(
    QUEUE_NAMES.servicing,
    async () => {
      const today = await clock.today();
      const started = performance.now();
      const closed = await closeBusinessDays({ store, redis, keys }, today);
      const seconds = (performance.now() - started) / 1000;
      await redis.set(jobKeys.lastDayClose, today);
      options.onDayClose?.(closed, seconds);
      logger.info('day close', { through: today, loans: closed.loans, changed: closed.changed, events: closed.events, seconds: Math.round(seconds * 1000) / 1000 });
      const due = await runDueWork({ store, redis, keys, notificationQueue }, clock, today, dayCloseMetadata(today));
      if (due.lapsedApprovals > 0) logger.info('approvals lapsed without the borrower accepting the Disclosure Statement', { lapsed: due.lapsedApprovals });
      if (due.expiredRequests > 0) logger.info('four-eyes requests expired without a second admin', { expired: due.expiredRequests });
      return { ...closed, ...due };
    },
    { ...queueOptions, concurrency: 1, lockDuration: 120_000 },
  );
  worker.on('failed', (_job, error) => logger.error('day close failed; the next run catches up', { error: error.message }));

  await queue.upsertJobScheduler(SCHEDULER_ID, { pattern: '5 * * * *', tz: 'Asia/Manila' }, { name: JOB_NAMES.closeBusinessDay, data: {}, opts: { removeOnComplete: KEEP_JOBS, removeOnFail: KEEP_JOBS } });
  // One catch-up run per hour however many workers start in it.
  const hour = now().toISOString().slice(0, 13);
  await queue.add(JOB_NAMES.closeBusinessDay, {}, { jobId: `catch-up-${hour}`, removeOnComplete: KEEP_JOBS, removeOnFail: KEEP_JOBS });

  return {
    async close() {
      await worker.close();
      await queue.close();
      await notificationQueue.close();
      connection.disconnect();
      redis.disconnect();
    },
  };
}
