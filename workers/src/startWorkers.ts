import { hostname } from 'node:os';
import { Queue, UnrecoverableError, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { ACCOUNT_CODE_QUEUE, ACCOUNT_CODE_TTL_MS, DEFAULT_RATES_URL, JOB_NAMES, OTP_TTL_MS, QUEUE_NAMES, RATES_REFRESH_EVERY_MS, createJobKeys, type RatesRefreshJob } from '@honeylend/contracts';
import { resolveOtpSecret } from '@honeylend/contracts/server';
import { describeError, type Logger } from './logger.js';
import { createNotificationProcessor } from './notifications/notificationProcessor.js';
import { createOtpProcessor } from './otp/otpProcessor.js';
import { createAccountCodeProcessor } from './accountCodes/accountCodeProcessor.js';
import { refreshRates } from './rates/refreshRates.js';
import { createSmsSender, type WorkerEnv } from './sms/createSmsSender.js';
import { SmsDeliveries } from './sms/smsDelivery.js';
import { OutboxSmsSender } from './sms/outboxSmsSender.js';
import { sparingDemoMembers } from './sms/demoMembers.js';
import { countingSender, observeQueues, observeWorker } from './workerMetrics.js';

export interface StartWorkersOptions {
  /** redis://host:port/db; the db index is honoured. */
  redisUrl: string;
  /** Prefix of every Redis key, BullMQ's included; default none. */
  keyPrefix?: string;
  /** SMS_SENDER, SMS_GATEWAY_URL, SMS_API_KEY, SMS_SENDER_NAME, SMS_TIMEOUT_MS, OTP_SECRET, RATES_URL, NODE_ENV. */
  env: WorkerEnv;
  logger: Logger;
  /** A shorter code lifetime for tests; otherwise the 5 minutes of design §7. */
  otpTtlMs?: number;
  /** A shorter lifetime for password-reset and phone-confirmation codes in tests; otherwise 10 minutes. */
  accountCodeTtlMs?: number;
  clock?: () => Date;
  /** Recorded on each job this process runs (BullMQ's processedBy), so an operator sees which process sent what; default NODE_NAME, else host and pid. */
  processName?: string;
}

export interface RunningWorkers {
  /** Lets running jobs finish, cancels any still running near the deadline, and disconnects, within 5 s. */
  close(): Promise<void>;
}

export const SHUTDOWN_DEADLINE_MS = 5_000;
// Time left after cancelling stragglers for their failure to be recorded and connections to close.
const CANCEL_AFTER_MS = 3_500;
const RATES_SCHEDULER_ID = 'rates-hourly';
const KEEP_FAILED_RATES_JOBS = { age: 24 * 3600, count: 100 };
/**
 * How a job whose worker died (SIGKILL, a lost machine) is found and run again: its lock lapses
 * `lockDuration` after the last renewal (renewed every half of it while the job runs), and the
 * stalled-job check, every `stalledInterval`, hands it to a live worker. BullMQ's 30 s / 30 s
 * would leave a borrower up to a minute without the code they are waiting for; 10 s / 5 s brings
 * it within ~15 s. A job that stalls again is run again (`maxStalledCount`) rather than failed:
 * the delivery record (sms/smsDelivery.ts) makes a re-run text nothing twice.
 */
export const STALLED_JOB_RECOVERY = { lockDuration: 10_000, stalledInterval: 5_000, maxStalledCount: 5 } as const;

/** Starts the OTP, notification and exchange-rate workers and the hourly rates schedule. */
export async function startWorkers(options: StartWorkersOptions): Promise<RunningWorkers> {
  const { env, logger } = options;
  const keys = createJobKeys(options.keyPrefix ?? '');
  const clock = options.clock ?? (() => new Date());
  const { secret, isDevelopmentDefault } = resolveOtpSecret(env);

  // BullMQ's blocking reads need a connection that never gives up on a command.
  const redis = new Redis(options.redisUrl, { maxRetriesPerRequest: null });
  redis.on('error', (error: unknown) => logger.error('Redis connection error', { error: describeError(error) }));

  const workers: Worker[] = [];
  let ratesQueue: Queue | undefined;
  try {
    const sender = createSmsSender(env, { redis, keys, logger });
    const outbox = new OutboxSmsSender(redis, keys, logger);
    // Each purpose counted apart; the demo's people are never texted (sms/demoMembers.ts).
    const toMembers = (purpose: string) => sparingDemoMembers(countingSender(sender, purpose), { redis, keyPrefix: options.keyPrefix ?? '', outbox, logger });
    const deliveries = new SmsDeliveries(redis, keys);
    if (isDevelopmentDefault) logger.warn('OTP_SECRET is not set; hashing codes with the development key');
    const queueOptions = { connection: redis, prefix: keys.queuePrefix };
    const workerOptions = { ...queueOptions, name: options.processName ?? (env.NODE_NAME || `${hostname()}:${process.pid}`) };

    workers.push(
      new Worker(QUEUE_NAMES.otp, createOtpProcessor({ redis, keys, sender: toMembers('otp'), deliveries, logger, secret, ttlMs: options.otpTtlMs ?? OTP_TTL_MS, clock }), {
        ...workerOptions,
        ...STALLED_JOB_RECOVERY,
        concurrency: 10,
      }),
      new Worker(ACCOUNT_CODE_QUEUE, createAccountCodeProcessor({ redis, keys, sender: toMembers('account-code'), deliveries, logger, secret, ttlMs: options.accountCodeTtlMs ?? ACCOUNT_CODE_TTL_MS, clock }), {
        ...workerOptions,
        ...STALLED_JOB_RECOVERY,
        concurrency: 10,
      }),
      new Worker(QUEUE_NAMES.notifications, createNotificationProcessor({ sender: toMembers('notification'), deliveries, logger }), { ...workerOptions, ...STALLED_JOB_RECOVERY, concurrency: 10 }),
      new Worker(QUEUE_NAMES.rates, (_job: Job<RatesRefreshJob>, _token?: string, signal?: AbortSignal) => refreshRates({ redis, keys, logger, clock, ratesUrl: env.RATES_URL || DEFAULT_RATES_URL }, signal), {
        ...workerOptions,
        concurrency: 1,
      }),
    );
    for (const worker of workers) {
      observeWorker(worker);
      worker.on('error', (error) => logger.error('worker error', { queue: worker.name, error: describeError(error) }));
      worker.on('failed', (job, error) => {
        const gaveUp = error instanceof UnrecoverableError || (job !== undefined && job.attemptsMade >= (job.opts.attempts ?? 1));
        if (gaveUp) logger.error('job gave up', { queue: worker.name, jobId: job?.id, error: error.message });
      });
    }
    await Promise.all(workers.map((worker) => worker.waitUntilReady()));

    ratesQueue = new Queue(QUEUE_NAMES.rates, queueOptions);
    const ratesJob = { name: JOB_NAMES.refreshRates, data: {}, opts: { removeOnComplete: true, removeOnFail: KEEP_FAILED_RATES_JOBS } };
    await ratesQueue.upsertJobScheduler(RATES_SCHEDULER_ID, { every: RATES_REFRESH_EVERY_MS }, ratesJob);
    // The schedule keeps its phase across restarts, so a fresh start fetches at once as well.
    await ratesQueue.add(ratesJob.name, ratesJob.data, ratesJob.opts);
  } catch (error) {
    await Promise.allSettled(workers.map((worker) => worker.close(true)));
    await ratesQueue?.close();
    redis.disconnect();
    throw error;
  }

  logger.info('workers started', { queues: workers.map((worker) => worker.name), keyPrefix: keys.prefix });
  const startedQueue = ratesQueue;
  // Each queue's depth for the metrics, read at every scrape (Queue objects are cheap: they share the connection).
  const countedQueues = [
    new Queue(QUEUE_NAMES.otp, { connection: redis, prefix: keys.queuePrefix }),
    new Queue(QUEUE_NAMES.notifications, { connection: redis, prefix: keys.queuePrefix }),
    new Queue(ACCOUNT_CODE_QUEUE, { connection: redis, prefix: keys.queuePrefix }),
    startedQueue,
    // The servicing day close, run by the same workers role (command-api's startServicingJobs).
    new Queue(QUEUE_NAMES.servicing, { connection: redis, prefix: keys.queuePrefix }),
  ];
  const unobserveQueues = observeQueues(countedQueues);
  let closing: Promise<void> | undefined;

  async function shutDown(): Promise<void> {
    const finished = Promise.all(workers.map((worker) => worker.close()));
    const cancelTimer = setTimeout(() => {
      logger.warn('jobs still running at shutdown; cancelling them so they retry elsewhere');
      for (const worker of workers) worker.cancelAllJobs('workers shutting down');
    }, CANCEL_AFTER_MS);
    try {
      await finished;
    } finally {
      clearTimeout(cancelTimer);
      unobserveQueues();
      await Promise.all(countedQueues.map((queue) => queue.close()));
      await redis.quit().catch(() => redis.disconnect());
      logger.info('workers stopped');
    }
  }

  return {
    close() {
      closing ??= shutDown();
      return closing;
    },
  };
}
