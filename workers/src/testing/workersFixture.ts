import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { QUEUE_NAMES, createJobKeys, type JobKeys, type OtpJob } from '@honeylend/contracts';
import { readSmsOutbox } from '@honeylend/contracts/server';
import { startWorkers, type RunningWorkers, type StartWorkersOptions } from '../startWorkers.js';
import type { WorkerEnv } from '../sms/createSmsSender.js';
import { capturingLogger } from './capturingLogger.js';
import { eventually } from './eventually.js';
import { answerJson, startLocalHttpServer, type LocalHttpServer } from './localHttpServer.js';
import { TEST_REDIS_URL, connectTestRedis, deleteKeysWithPrefix, uniqueKeyPrefix } from './redisForTests.js';

export const TEST_OTP_SECRET = 'test-otp-secret-that-is-long-enough-0123456789';

export interface TestWorkers {
  keys: JobKeys;
  redis: Redis;
  logger: ReturnType<typeof capturingLogger>;
  otpQueue: Queue;
  notificationsQueue: Queue;
  ratesQueue: Queue;
  workers: RunningWorkers;
  /** Stops the workers, then removes every key this fixture wrote. */
  close(): Promise<void>;
}

/**
 * Real workers on the local Redis under a fresh key prefix. The rates service is a local server
 * answering 503, so the fetch at start never leaves the machine (tests of rates pass their own).
 */
export async function startTestWorkers(options: { env?: WorkerEnv; otpTtlMs?: number; clock?: () => Date; redisUrl?: string } = {}): Promise<TestWorkers> {
  const keyPrefix = uniqueKeyPrefix();
  const keys = createJobKeys(keyPrefix);
  const logger = capturingLogger();
  const redis = connectTestRedis(options.redisUrl);
  const unavailableRates: LocalHttpServer = await startLocalHttpServer((_request, response) => answerJson(response, 503, { result: 'error' }));
  const startOptions: StartWorkersOptions = {
    redisUrl: options.redisUrl ?? TEST_REDIS_URL,
    keyPrefix,
    logger,
    env: { OTP_SECRET: TEST_OTP_SECRET, RATES_URL: unavailableRates.url, ...options.env },
    ...(options.otpTtlMs === undefined ? {} : { otpTtlMs: options.otpTtlMs }),
    ...(options.clock === undefined ? {} : { clock: options.clock }),
  };
  const workers = await startWorkers(startOptions);
  const queueOptions = { connection: redis, prefix: keys.queuePrefix };
  const otpQueue = new Queue(QUEUE_NAMES.otp, queueOptions);
  const notificationsQueue = new Queue(QUEUE_NAMES.notifications, queueOptions);
  const ratesQueue = new Queue(QUEUE_NAMES.rates, queueOptions);
  return {
    keys,
    redis,
    logger,
    otpQueue,
    notificationsQueue,
    ratesQueue,
    workers,
    async close() {
      await workers.close();
      await Promise.all([otpQueue.close(), notificationsQueue.close(), ratesQueue.close()]);
      await unavailableRates.close();
      await deleteKeysWithPrefix(redis, keyPrefix);
      await redis.quit();
    },
  };
}

export function otpJobFor(overrides: Partial<OtpJob> = {}): OtpJob {
  return { challengeId: randomUUID(), memberId: randomUUID(), phone: '+639171234567', amountCentavos: 150_000, ...overrides };
}

const CODE_IN_MESSAGE = /withdrawal code is (\d{6})\./;

/** Waits for the text of one challenge's code in the development outbox and reads the code from it. */
export async function codeFromOutbox(redis: Redis, keys: JobKeys, phone: string): Promise<string> {
  return eventually(`an OTP text to ${phone}`, async () => {
    for (const entry of await readSmsOutbox(redis, keys, { to: phone })) {
      const code = CODE_IN_MESSAGE.exec(entry.body)?.[1];
      if (code !== undefined) return code;
    }
    return undefined;
  });
}

/** A six-digit code other than `code`. */
export function wrongCodeFor(code: string): string {
  return String((Number(code) + 1) % 1_000_000).padStart(6, '0');
}
