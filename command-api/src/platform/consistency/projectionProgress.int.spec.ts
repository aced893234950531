import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { readModelKeys } from '@honeylend/contracts';
import { ProjectionProgress } from './projectionProgress.js';

/** Read-your-writes against read models of another event store (real Redis). */
const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const redis = new Redis(url);
const subscriber = new Redis(url);
const keys = readModelKeys(`test-${randomUUID()}:`);
const progress = new ProjectionProgress(redis, subscriber, keys, async () => 'esdb:this-store');

afterAll(async () => {
  await progress.stop();
  await redis.del(keys.checkpoint, keys.storeIdentity);
  redis.disconnect();
});

describe('waiting for the read models', () => {
  it('answers "not shown yet" at once when they were built from another store, whatever their checkpoint', async () => {
    // Read models of a PostgreSQL store, far ahead in numbers: this store's position 500 is no part of them.
    await redis.set(keys.storeIdentity, 'postgres:another-store');
    await redis.set(keys.checkpoint, '9000000');
    const started = Date.now();
    expect(await progress.waitFor(500)).toBe(false);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('counts the checkpoints of read models rebuilt from this store afresh', async () => {
    await redis.set(keys.storeIdentity, 'esdb:this-store');
    await redis.set(keys.checkpoint, '300');
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await progress.waitFor(500, 200)).toBe(false);
    expect(await progress.waitFor(300)).toBe(true);
  });
});
