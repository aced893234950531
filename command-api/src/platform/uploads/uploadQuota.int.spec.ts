import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { UPLOAD_QUOTA, UploadQuota } from './uploadQuota.js';

const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
const prefix = `test-${randomUUID()}:`;
const quota = new UploadQuota(redis, prefix);
afterAll(async () => {
  const left = await redis.keys(`${prefix}*`);
  if (left.length > 0) await redis.del(...left);
  redis.disconnect();
});

const MB = 1024 * 1024;

describe('daily upload quota (real Redis)', () => {
  it("refuses the upload that would pass the day's bytes, with the seconds to the next UTC midnight", async () => {
    const memberId = randomUUID();
    const now = new Date('2026-11-25T22:00:00.000Z');
    await quota.take(memberId, 30 * MB, now);
    const refused = await quota.take(memberId, UPLOAD_QUOTA.bytesPerDay - 30 * MB + 1, now).catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 429, code: 'UPLOAD_QUOTA_REACHED', details: { retryAfterSeconds: 2 * 3600 } });
    // What fits still goes in; the next day starts afresh.
    await quota.take(memberId, UPLOAD_QUOTA.bytesPerDay - 30 * MB, now);
    await quota.take(memberId, 8 * MB, new Date('2026-11-26T00:00:01.000Z'));
  });

  it("refuses the file past the day's count, whatever its size, and counts each member apart", async () => {
    const memberId = randomUUID();
    const now = new Date();
    for (let i = 0; i < UPLOAD_QUOTA.filesPerDay; i++) await quota.take(memberId, 1000, now);
    await expect(quota.take(memberId, 0, now)).rejects.toMatchObject({ status: 429 });
    await expect(quota.take(memberId, 1000, now)).rejects.toMatchObject({ status: 429 });
    await quota.take(randomUUID(), 1000, now);
  });
});
