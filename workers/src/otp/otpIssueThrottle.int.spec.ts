import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createJobKeys } from '@honeylend/contracts';
import { reserveOtpIssue } from '@honeylend/contracts/server';
import { connectTestRedis, deleteKeysWithPrefix, uniqueKeyPrefix } from '../testing/redisForTests.js';

const prefix = uniqueKeyPrefix();
const keys = createJobKeys(prefix);
const redis = connectTestRedis();

afterAll(async () => {
  await deleteKeysWithPrefix(redis, prefix);
  await redis.quit();
});

const start = new Date('2026-11-22T02:00:00.000Z');
const minutesAfterStart = (minutes: number) => new Date(start.getTime() + minutes * 60_000);
const reserve = (memberId: string, now: Date) => reserveOtpIssue(redis, keys, { memberId, challengeId: randomUUID(), now });

describe('OTP issue throttle: at most 3 codes per member per 15 minutes', () => {
  it('allows three codes and refuses a fourth within 15 minutes, saying when to retry', async () => {
    const memberId = randomUUID();
    expect(await reserve(memberId, minutesAfterStart(0))).toEqual({ allowed: true, remaining: 2 });
    expect(await reserve(memberId, minutesAfterStart(1))).toEqual({ allowed: true, remaining: 1 });
    expect(await reserve(memberId, minutesAfterStart(2))).toEqual({ allowed: true, remaining: 0 });
    expect(await reserve(memberId, minutesAfterStart(10))).toEqual({ allowed: false, retryAt: minutesAfterStart(15), retryAfterSeconds: 300 });
  });

  it('does not count a refused request, and frees a slot as the oldest code leaves the window', async () => {
    const memberId = randomUUID();
    for (const minute of [0, 1, 2]) await reserve(memberId, minutesAfterStart(minute));
    expect((await reserve(memberId, minutesAfterStart(14))).allowed).toBe(false);
    expect(await reserve(memberId, minutesAfterStart(15))).toEqual({ allowed: true, remaining: 0 });
    expect(await reserve(memberId, minutesAfterStart(15.5))).toEqual({ allowed: false, retryAt: minutesAfterStart(16), retryAfterSeconds: 30 });
  });

  it('counts each member separately', async () => {
    const busy = randomUUID();
    for (const minute of [0, 1, 2]) await reserve(busy, minutesAfterStart(minute));
    expect((await reserve(busy, minutesAfterStart(3))).allowed).toBe(false);
    expect((await reserve(randomUUID(), minutesAfterStart(3))).allowed).toBe(true);
  });

  it('lets its record expire with the window', async () => {
    const memberId = randomUUID();
    await reserve(memberId, new Date());
    const ttl = await redis.pttl(keys.otpIssueThrottle(memberId));
    expect(ttl).toBeGreaterThan(14 * 60_000);
    expect(ttl).toBeLessThanOrEqual(15 * 60_000);
  });
});
