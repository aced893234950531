import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { readModelKeys } from '@honeylend/contracts';
import type { RecordedEvent } from '@honeylend/eventstore';
import { LeaderLease, LeadershipLost } from './leaderLease.js';
import { membersProjection } from './members/membersProjection.js';
import { ProjectionRunner } from './projectionRunner.js';
import { deleteKeys } from './testing/redisSnapshot.js';

const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
const prefixes: string[] = [];
const silent = { info() {}, warn() {}, error() {} };
const at = '2026-11-25T08:00:00.000Z';

afterAll(async () => {
  for (const prefix of prefixes) await deleteKeys(redis, `${prefix}*`);
  redis.disconnect();
});

function keysOfTest() {
  const prefix = `test-lease-${randomUUID()}:`;
  prefixes.push(prefix);
  return readModelKeys(prefix);
}

const leaseOf = (keys: ReturnType<typeof readModelKeys>, ttlMs = 3_000) => new LeaderLease({ redis, key: keys.projectionLeader, fenceKey: keys.projectionLeaderFence, ttlMs });

function registration(position: number): RecordedEvent {
  const memberId = randomUUID();
  return {
    id: randomUUID(),
    stream: `member-${memberId}`,
    type: 'MemberRegistered',
    data: { memberId, phone: `+6391713${String(position).padStart(5, '0')}`, fullName: 'Ligaya Ramos', email: null, passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA', registeredAt: at, registeredBy: 'self' },
    metadata: {},
    revision: 0,
    position,
    createdAt: at,
  };
}

/** A runner that only ever applies batches handed to it (no store reads). */
const runnerWith = (keys: ReturnType<typeof readModelKeys>, fence: LeaderLease) => new ProjectionRunner({ store: {} as never, redis, keys, projections: [membersProjection], logger: silent, fence });

describe('the projection leader lease', () => {
  it('is held by one runner at a time, with a fencing token larger than every earlier one', async () => {
    const keys = keysOfTest();
    const first = leaseOf(keys);
    const second = leaseOf(keys);
    expect(await first.tryAcquire()).toBe(true);
    expect(await second.tryAcquire()).toBe(false);
    expect(second.token).toBeNull();
    expect(await first.renew()).toBe(true);
    const firstToken = Number(first.token);
    await first.release();
    expect(await second.tryAcquire()).toBe(true);
    expect(Number(second.token)).toBeGreaterThan(firstToken);
    // A release by a runner that no longer holds it leaves the new holder's lease alone.
    await first.release();
    expect(await redis.get(keys.projectionLeader)).toBe(second.token);
  });

  it('passes to a standby once the leader stops renewing for its time to live', async () => {
    const keys = keysOfTest();
    const leader = leaseOf(keys, 400);
    const standby = leaseOf(keys, 400);
    expect(await leader.tryAcquire()).toBe(true);
    expect(await standby.tryAcquire()).toBe(false);
    await sleep(600);
    expect(await standby.tryAcquire()).toBe(true);
    expect(await leader.renew()).toBe(false);
    expect(leader.token).toBeNull();
  });

  it("refuses a paused old leader's batch after a standby took over: nothing of it is written, and the new leader's batch is", async () => {
    const keys = keysOfTest();
    const oldLease = leaseOf(keys, 400);
    const newLease = leaseOf(keys, 400);
    const oldLeader = runnerWith(keys, oldLease);
    const newLeader = runnerWith(keys, newLease);
    expect(await oldLease.tryAcquire()).toBe(true);
    expect(await oldLeader.applyBatch([registration(1)])).toEqual({ applied: 1, skipped: 0 });

    // The old leader is paused past its lease (no renewal); a standby takes the lease over.
    await sleep(600);
    expect(await newLease.tryAcquire()).toBe(true);
    const stale = registration(2);
    // The old leader still believes it leads: Redis decides, in the same script as the write.
    expect(oldLease.token).not.toBeNull();
    await expect(oldLeader.applyBatch([stale])).rejects.toBeInstanceOf(LeadershipLost);
    expect(await redis.get(keys.checkpoint)).toBe('1');
    expect(await redis.get(keys.member((stale.data as { memberId: string }).memberId))).toBeNull();
    expect(await redis.xlen(keys.changes)).toBe(1);

    expect(await newLeader.applyBatch([stale])).toEqual({ applied: 1, skipped: 0 });
    expect(await redis.get(keys.checkpoint)).toBe('2');
    expect(await redis.get(keys.member((stale.data as { memberId: string }).memberId))).not.toBeNull();
    expect(await redis.xlen(keys.changes)).toBe(2);
  });

  it('refuses a batch from a runner that never took the lease', async () => {
    const keys = keysOfTest();
    await expect(runnerWith(keys, leaseOf(keys)).applyBatch([registration(1)])).rejects.toBeInstanceOf(LeadershipLost);
    expect(await redis.get(keys.checkpoint)).toBeNull();
  });
});
