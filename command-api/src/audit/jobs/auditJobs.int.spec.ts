import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@honeylend/observability';
import { openEventStore, type EventStore } from '@honeylend/eventstore';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { AuditJobs, auditJobKeys, VERIFY_QUEUE } from './auditJobs.js';
import { startVerificationWorker } from './verificationWorker.js';

// The book's job against real Redis (BullMQ) and a real PGlite store that goes away under it.

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
let store: EventStore;
let jobs: AuditJobs;
const lines: string[] = [];

beforeAll(async () => {
  store = await openEventStore('pglite:memory');
  await store.append(`member-${randomUUID()}`, [{ id: randomUUID(), type: 'Probe', data: {}, metadata: {} }], { expectedRevision: 'no_stream' });
  jobs = new AuditJobs({
    store,
    redisUrl,
    keyPrefix: `test-audit-jobs-${randomUUID()}:`,
    logger: createLogger('test', { level: 'error', write: (line) => void lines.push(line) }),
    now: () => new Date(),
  });
  await jobs.ready();
});

afterAll(async () => {
  await jobs?.close();
  await store?.close().catch(() => undefined);
});

async function until<T>(read: () => Promise<T | null>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("the book's job", () => {
  it('answers a fold that failed as failed once, logs why, and starts afresh when asked again', async () => {
    // The store is gone: the fold's first read fails.
    await store.close();
    const started = await jobs.startBook(1);
    expect(started).toMatchObject({ jobId: 'book-1', progress: { folded: 0, of: 1 } });
    // Polled as the workspace does, until the job has failed: then it is said, not retried.
    const failed = await until(async () => {
      const answer = await jobs.startBook(1);
      return 'failed' in answer ? answer : null;
    });
    expect(failed).toEqual({ failed: true });
    expect(lines.some((line) => line.includes('audit job failed') && line.includes('book-1'))).toBe(true);
    // The next ask starts a new fold of the same position.
    expect(await jobs.startBook(1)).toMatchObject({ jobId: 'book-1', progress: { folded: 0, of: 1 } });
  });
});

describe('verifications of the log', () => {
  it('run one at a time for the whole system: concurrent requests on two API nodes join one, which the workers run and the API never does', async () => {
    const keyPrefix = `test-audit-verify-${randomUUID()}:`;
    const logger = createLogger('test', { level: 'error', write: (line) => void lines.push(line) });
    const log = await openEventStore('pglite:memory');
    for (let i = 0; i < 5; i++) await log.append(`member-${randomUUID()}`, [{ id: randomUUID(), type: 'Probe', data: {}, metadata: {} }], { expectedRevision: 'no_stream' });
    const nodes = [new AuditJobs({ store: log, redisUrl, keyPrefix, logger, now: () => new Date() }), new AuditJobs({ store: log, redisUrl, keyPrefix, logger, now: () => new Date() })];
    await Promise.all(nodes.map((node) => node.ready()));
    const redis = new Redis(redisUrl);
    const queue = new Queue(VERIFY_QUEUE, { connection: redis, prefix: auditJobKeys(keyPrefix).queuePrefix });
    let worker: { close(): Promise<void> } | null = null;
    try {
      const asked = await Promise.all([nodes[0].startVerify({}), nodes[1].startVerify({}), nodes[0].startVerify({ from: 1, to: 2 }), nodes[1].startVerify({}), nodes[0].startVerify({})]);
      const jobId = asked[0].jobId;
      expect(asked.map((answer) => answer.jobId)).toEqual(Array(asked.length).fill(jobId));
      expect(await queue.getJobCounts('waiting', 'active', 'completed')).toMatchObject({ waiting: 1, active: 0, completed: 0 });

      // The API nodes only queued it: with no workers running it stays where it is.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(await nodes[1].verifyStatus(jobId)).toMatchObject({ status: 'running', checkedEvents: 0 });
      expect((await nodes[0].startVerify({})).jobId).toBe(jobId);

      worker = await startVerificationWorker({ store: log, redisUrl, keyPrefix, trustedKeys: [], logger, now: () => new Date(), name: 'workers-1' });
      const done = await until(async () => {
        const answer = await nodes[0].verifyStatus(jobId);
        return answer?.status === 'running' ? null : answer;
      });
      expect(done).toMatchObject({ status: 'passed', checkedEvents: 5 });
      expect((await queue.getJob(jobId))?.processedBy).toBe('workers-1');

      // Finished: the next request starts a verification of its own.
      const next = await nodes[1].startVerify({});
      expect(next.jobId).not.toBe(jobId);
    } finally {
      await worker?.close();
      await Promise.all(nodes.map((node) => node.close()));
      await queue.close();
      const keys = await redis.keys(`${keyPrefix}*`);
      if (keys.length) await redis.del(...keys);
      redis.disconnect();
      await log.close();
    }
  });
});
