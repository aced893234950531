import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { readModelKeys, type MemberDoc } from '@honeylend/contracts';
import type { RecordedEvent } from '@honeylend/eventstore';
import { ProjectionRunner } from '../projectionRunner.js';
import { membersProjection } from './membersProjection.js';
import { deleteKeys, snapshotKeys } from '../testing/redisSnapshot.js';

const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
const prefix = `test-${randomUUID()}:`;
const keys = readModelKeys(prefix);
const silent = { info() {}, warn() {}, error() {} };
const memberId = randomUUID();
const at = '2026-11-22T08:00:00.000Z';

function recorded(position: number, type: string, data: Record<string, unknown>): RecordedEvent {
  return { id: randomUUID(), stream: `member-${memberId}`, type, data, metadata: {}, revision: position - 1, position, createdAt: at };
}

const registered = recorded(1, 'MemberRegistered', {
  memberId,
  phone: '+639171234567',
  fullName: 'Maria Santos',
  email: null,
  passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA',
  registeredAt: at,
  registeredBy: 'self',
});
const profileUpdated = recorded(2, 'MemberProfileUpdated', {
  memberId,
  changes: { address: '123 Rizal Avenue, Manila', monthlySalaryCentavos: 2_500_000 },
  updatedAt: '2026-11-22T08:05:00.000Z',
});

const runner = new ProjectionRunner({ store: undefined as never, redis, keys, projections: [membersProjection], logger: silent });

beforeEach(() => deleteKeys(redis, prefix));
afterAll(async () => {
  await deleteKeys(redis, prefix);
  redis.disconnect();
});

describe('members projection (real Redis)', () => {
  it('given a registration and a profile update, stores the member document at the latest version', async () => {
    await runner.applyBatch([registered, profileUpdated]);
    const doc = JSON.parse((await redis.get(keys.member(memberId)))!) as MemberDoc;
    expect(doc).toMatchObject({
      id: memberId,
      phone: '+639171234567',
      fullName: 'Maria Santos',
      address: '123 Rizal Avenue, Manila',
      monthlySalaryCentavos: 2_500_000,
      balanceCentavos: 0,
      creditScore: 500,
      status: 'active',
      version: 2,
    });
    expect(await redis.hgetall(keys.auth(memberId))).toEqual({ role: 'borrower', status: 'active', tokenVersion: '0' });
    expect(await redis.get(keys.checkpoint)).toBe('2');
  });

  it('keeps the latest-ending withdrawal hold on the member document, where the wallet reads it', async () => {
    const held = (position: number, reason: string, heldUntil: string) => recorded(position, 'WithdrawalsHeld', { memberId, reason, heldUntil, heldAt: at });
    await runner.applyBatch([registered, held(2, 'phone-changed', '2026-11-23T20:00:00.000Z'), held(3, 'too-many-wrong-codes', '2026-11-23T08:00:00.000Z')]);
    const doc = JSON.parse((await redis.get(keys.member(memberId)))!) as MemberDoc;
    expect(doc.withdrawalHold).toEqual({ until: '2026-11-23T20:00:00.000Z', reason: 'phone-changed' });
    await runner.applyBatch([held(4, 'bank-account-changed', '2026-11-24T08:00:00.000Z')]);
    const later = JSON.parse((await redis.get(keys.member(memberId)))!) as MemberDoc;
    expect(later.withdrawalHold).toEqual({ until: '2026-11-24T08:00:00.000Z', reason: 'bank-account-changed' });
  });

  it('never stores the password hash in the read model', async () => {
    await runner.applyBatch([registered]);
    const snapshot = JSON.stringify(await snapshotKeys(redis, prefix));
    expect(snapshot).not.toContain('argon2id');
  });

  it('writes one change-feed entry per change, naming the member room and the admins room', async () => {
    await runner.applyBatch([registered]);
    await runner.applyBatch([profileUpdated]);
    const entries = await redis.xrange(keys.changes, '-', '+');
    expect(entries).toHaveLength(2);
    const fields = Object.fromEntries(chunk(entries[1][1]));
    expect(fields.event).toBe('member.updated');
    expect(JSON.parse(fields.rooms)).toEqual([`member:${memberId}`, 'admins']);
    expect(fields.version).toBe('2');
    expect(JSON.parse(fields.doc).address).toBe('123 Rizal Avenue, Manila');
  });

  it('a replayed event changes nothing: not the documents, the checkpoints, nor the change feed', async () => {
    await runner.applyBatch([registered, profileUpdated]);
    const before = await snapshotKeys(redis, prefix);
    const result = await runner.applyBatch([profileUpdated]);
    const again = await runner.applyBatch([registered, profileUpdated]);
    expect(result).toEqual({ applied: 0, skipped: 1 });
    expect(again).toEqual({ applied: 0, skipped: 2 });
    expect(await snapshotKeys(redis, prefix)).toEqual(before);
  });

  it('two runners racing over the same events apply each exactly once', async () => {
    const other = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    try {
      const second = new ProjectionRunner({ store: undefined as never, redis: other, keys, projections: [membersProjection], logger: silent });
      const results = await Promise.all([runner.applyBatch([registered, profileUpdated]), second.applyBatch([registered, profileUpdated])]);
      expect(results.map((r) => r.applied).sort()).toEqual([0, 2]);
      expect(await redis.xlen(keys.changes)).toBe(2);
    } finally {
      other.disconnect();
    }
  });
});

function chunk(flat: string[]): [string, string][] {
  const pairs: [string, string][] = [];
  for (let i = 0; i < flat.length; i += 2) pairs.push([flat[i], flat[i + 1]]);
  return pairs;
}
