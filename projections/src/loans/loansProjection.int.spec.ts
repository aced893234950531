import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { readModelKeys } from '@honeylend/contracts';
import type { RecordedEvent } from '@honeylend/eventstore';
import { ProjectionRunner } from '../projectionRunner.js';
import { deleteKeys, snapshotKeys } from '../testing/redisSnapshot.js';
import { loansProjection } from './loansProjection.js';

const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
const prefix = `test-${randomUUID()}:`;
const keys = readModelKeys(prefix);
const silent = { info() {}, warn() {}, error() {} };
const loanId = randomUUID();
const memberId = randomUUID();
const at = '2026-11-22T08:00:00.000Z';

let position = 0;
function recorded(type: string, data: Record<string, unknown>): RecordedEvent {
  position++;
  return { id: randomUUID(), stream: `loan-${loanId}`, type, data, metadata: {}, revision: position - 1, position, createdAt: at };
}

const runner = new ProjectionRunner({ store: undefined as never, redis, keys, projections: [loansProjection], logger: silent });

beforeEach(async () => {
  position = 0;
  await deleteKeys(redis, prefix);
});
afterAll(async () => {
  await deleteKeys(redis, prefix);
  redis.disconnect();
});

const applied = () => recorded('LoanApplied', { loanId, memberId, loanNumber: 'LN-2026-000042', amountCentavos: 8_000_000, termMonths: 12, monthlyRateBps: 250, purpose: 'Stock', appliedAt: at });
const statusChanged = (from: string, to: string) => recorded('LoanStatusChanged', { loanId, memberId, from, to, message: null, changedAt: at });

describe('loans projection (real Redis)', () => {
  it('keeps the status lists, the search text and the counters as a loan moves', async () => {
    await runner.applyBatch([applied(), statusChanged('pending', 'approved')]);
    expect(await redis.zrange(keys.loansByStatus('pending'), 0, -1)).toEqual([]);
    expect(await redis.zrange(keys.loansByStatus('approved'), 0, -1)).toEqual([loanId]);
    expect(await redis.hget(keys.loanSearch, loanId)).toBe(`${memberId}\nln-2026-000042\napproved`);
    expect(await redis.hgetall(keys.loanStats)).toEqual({ total: '1', 'status:pending': '0', 'status:approved': '1', totalAmountCentavos: '8000000' });
    await runner.applyBatch([recorded('LoanDisbursed', { memberId, loanId, amountCentavos: 8_000_000, disbursedAt: at })]);
    expect(await redis.hget(keys.loanStats, 'disbursedAmountCentavos')).toBe('8000000');
  });

  it('follows new terms in the amount counter and removes a deleted loan everywhere', async () => {
    await runner.applyBatch([applied(), recorded('LoanTermsChanged', { loanId, memberId, amountCentavos: 10_000_000, termMonths: 24, previousAmountCentavos: 8_000_000, previousTermMonths: 12, changedAt: at })]);
    expect(JSON.parse((await redis.get(keys.loan(loanId)))!)).toMatchObject({ amountCentavos: 10_000_000, termMonths: 24 });
    expect(await redis.hget(keys.loanStats, 'totalAmountCentavos')).toBe('10000000');
    await runner.applyBatch([recorded('LoanDeleted', { loanId, memberId, status: 'pending', deletedAt: at })]);
    expect(await redis.get(keys.loan(loanId))).toBeNull();
    expect(await redis.zcard(keys.loans)).toBe(0);
    expect(await redis.zcard(keys.loansByMember(memberId))).toBe(0);
    expect(await redis.hget(keys.loanSearch, loanId)).toBeNull();
    expect(await redis.hgetall(keys.loanStats)).toEqual({ total: '0', 'status:pending': '0', totalAmountCentavos: '0' });
  });

  it('changes nothing when the same events are applied again', async () => {
    const events = [applied(), statusChanged('pending', 'denied')];
    await runner.applyBatch(events);
    const before = await snapshotKeys(redis, prefix);
    expect(await runner.applyBatch(events)).toEqual({ applied: 0, skipped: 2 });
    expect(await snapshotKeys(redis, prefix)).toEqual(before);
  });
});
