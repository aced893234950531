import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@honeylend/observability';
import { openEventStore, type EventStore } from '@honeylend/eventstore';
import { AuditJobs } from './auditJobs.js';

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
    trustedKeys: [],
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
