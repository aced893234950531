import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { dailyStatsKeys, readModelKeys } from '@honeylend/contracts';
import type { RecordedEvent } from '@honeylend/eventstore';
import { ProjectionRunner } from '../projectionRunner.js';
import { deleteKeys, snapshotKeys } from '../testing/redisSnapshot.js';
import { dailyStatsProjection } from './dailyStatsProjection.js';

const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
const prefix = `test-${randomUUID()}:`;
const keys = readModelKeys(prefix);
const stats = dailyStatsKeys(keys);
const silent = { info() {}, warn() {}, error() {} };
const memberId = randomUUID();
const runner = new ProjectionRunner({ store: undefined as never, redis, keys, projections: [dailyStatsProjection], logger: silent });

let position = 0;
/** An event recorded at `createdAt`; the data's own times are deliberately another day, to show the recorded time decides. */
function recorded(type: string, data: Record<string, unknown>, createdAt: string): RecordedEvent {
  position++;
  return { id: randomUUID(), stream: `s-${position}`, type, data, metadata: {}, revision: 0, position, createdAt };
}
const otherDay = '2020-01-01T00:00:00.000Z';
const loanApplied = (loanId: string, amountCentavos: number, at: string) =>
  recorded('LoanApplied', { loanId, memberId, loanNumber: 'LN-2026-000001', amountCentavos, termMonths: 6, monthlyRateBps: 250, purpose: 'Stock', appliedAt: otherDay }, at);
const statusChanged = (loanId: string, from: string, to: string, at: string) => recorded('LoanStatusChanged', { loanId, memberId, from, to, message: null, changedAt: at }, at);
const withdrawalRequested = (amountCentavos: number, at: string) =>
  recorded(
    'WithdrawalRequested',
    { withdrawalId: randomUUID(), memberId, withdrawalNumber: 'WD-1', amountCentavos, bankName: 'BDO', bankAccountNumber: '1234567890', challengeId: randomUUID(), requestedAt: otherDay },
    at,
  );

beforeEach(async () => {
  position = 0;
  await deleteKeys(redis, prefix);
});
afterAll(async () => {
  await deleteKeys(redis, prefix);
  redis.disconnect();
});

describe('daily-stats projection (real Redis)', () => {
  it('counts applications and withdrawals on the Manila day of the recorded event', async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    await runner.applyBatch([
      // 15:59Z is 23:59 on 3 March in Manila; 16:00Z is already 4 March there.
      loanApplied(a, 5_000_000, '2026-03-03T15:59:00.000Z'),
      loanApplied(b, 1_250_050, '2026-03-03T16:00:00.000Z'),
      withdrawalRequested(120_000, '2026-03-03T16:30:00.000Z'),
      withdrawalRequested(30_025, '2026-03-04T02:00:00.000Z'),
    ]);
    expect(await redis.hgetall(stats.daily)).toEqual({
      '2026-03-03:loanApplications': '1',
      '2026-03-03:loanAmountCentavos': '5000000',
      '2026-03-04:loanApplications': '1',
      '2026-03-04:loanAmountCentavos': '1250050',
      '2026-03-04:withdrawals': '2',
      '2026-03-04:withdrawalAmountCentavos': '150025',
    });
    expect(await redis.hgetall(stats.loanAmountByStatus)).toEqual({ 'count:pending': '2', 'amountCentavos:pending': '6250050' });
  });

  it('moves a loan amount with its status, its new terms and its deletion, leaving the day it was applied on', async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    const day = '2026-05-10T03:00:00.000Z';
    await runner.applyBatch([loanApplied(a, 8_000_000, day), loanApplied(b, 2_000_000, day)]);
    await runner.applyBatch([
      recorded('LoanTermsChanged', { loanId: b, memberId, amountCentavos: 3_000_000, termMonths: 12, previousAmountCentavos: 2_000_000, previousTermMonths: 6, changedAt: day }, '2026-05-11T03:00:00.000Z'),
      statusChanged(a, 'pending', 'approved', '2026-05-12T03:00:00.000Z'),
      statusChanged(a, 'approved', 'active', '2026-05-12T04:00:00.000Z'),
    ]);
    expect(await redis.hgetall(stats.loanAmountByStatus)).toEqual({
      'count:pending': '1',
      'amountCentavos:pending': '3000000',
      'count:approved': '0',
      'amountCentavos:approved': '0',
      'count:active': '1',
      'amountCentavos:active': '8000000',
    });
    await runner.applyBatch([
      statusChanged(b, 'pending', 'under_review', '2026-05-13T03:00:00.000Z'),
      recorded('LoanDeleted', { loanId: b, memberId, status: 'under_review', deletedAt: day }, '2026-05-14T03:00:00.000Z'),
    ]);
    const byStatus = await redis.hgetall(stats.loanAmountByStatus);
    expect(byStatus).toMatchObject({ 'count:pending': '0', 'amountCentavos:pending': '0', 'count:under_review': '0', 'amountCentavos:under_review': '0', 'count:active': '1' });
    expect(await redis.get(stats.trackedLoan(b))).toBeNull();
    // The day's figures are what was applied that day, as applied.
    expect(await redis.hgetall(stats.daily)).toEqual({ '2026-05-10:loanApplications': '2', '2026-05-10:loanAmountCentavos': '10000000' });
  });

  it('counts a lapsed approval as lapsed, no longer approved', async () => {
    const loanId = randomUUID();
    await runner.applyBatch([
      loanApplied(loanId, 3_000_000, '2026-03-03T02:00:00.000Z'),
      statusChanged(loanId, 'pending', 'approved', '2026-03-04T02:00:00.000Z'),
      recorded('LoanApprovalLapsed', { loanId, memberId, approvedAt: '2026-03-04T02:00:00.000Z', lapsedAt: '2026-03-11T02:00:00.000Z' }, '2026-03-11T02:00:00.000Z'),
    ]);
    expect(await redis.hgetall(stats.loanAmountByStatus)).toEqual({
      'count:pending': '0',
      'amountCentavos:pending': '0',
      'count:approved': '0',
      'amountCentavos:approved': '0',
      'count:lapsed': '1',
      'amountCentavos:lapsed': '3000000',
    });
  });

  it('changes nothing when the same events are applied again, and a fresh replay builds the same keys', async () => {
    const loanId = randomUUID();
    const events = [loanApplied(loanId, 4_500_000, '2026-07-01T10:00:00.000Z'), withdrawalRequested(99_999, '2026-07-01T11:00:00.000Z'), statusChanged(loanId, 'pending', 'denied', '2026-07-02T10:00:00.000Z')];
    await runner.applyBatch(events);
    const before = await snapshotKeys(redis, prefix);
    expect(await runner.applyBatch(events)).toEqual({ applied: 0, skipped: 3 });
    expect(await snapshotKeys(redis, prefix)).toEqual(before);

    const replayPrefix = `${prefix}replay:`;
    const replay = new ProjectionRunner({ store: undefined as never, redis, keys: readModelKeys(replayPrefix), projections: [dailyStatsProjection], logger: silent });
    await replay.applyBatch(events.slice(0, 1));
    await replay.applyBatch(events.slice(1));
    const rebuilt = await snapshotKeys(redis, replayPrefix);
    const live = Object.fromEntries(Object.entries(before).map(([key, value]) => [key.replace(prefix, replayPrefix), value]));
    expect(rebuilt).toEqual(live);
  });
});
