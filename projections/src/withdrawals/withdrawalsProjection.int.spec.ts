import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { readModelKeys } from '@honeylend/contracts';
import type { RecordedEvent } from '@honeylend/eventstore';
import { ProjectionRunner } from '../projectionRunner.js';
import { deleteKeys, snapshotKeys } from '../testing/redisSnapshot.js';
import { withdrawalsProjection } from './withdrawalsProjection.js';

const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
const prefix = `test-${randomUUID()}:`;
const keys = readModelKeys(prefix);
const silent = { info() {}, warn() {}, error() {} };
const memberId = randomUUID();
const at = '2026-11-22T08:00:00.000Z';

let position = 0;
function recorded(type: string, data: Record<string, unknown>): RecordedEvent {
  position++;
  return { id: randomUUID(), stream: `member-${memberId}`, type, data, metadata: {}, revision: position - 1, position, createdAt: at };
}
const requested = (withdrawalId: string, amountCentavos: number, n: number) =>
  recorded('WithdrawalRequested', {
    memberId,
    withdrawalId,
    withdrawalNumber: `WD-2026-00000${n}`,
    amountCentavos,
    bankName: 'BDO',
    bankAccountNumber: '001234567890',
    challengeId: randomUUID(),
    requestedAt: at,
  });

const runner = new ProjectionRunner({ store: undefined as never, redis, keys, projections: [withdrawalsProjection], logger: silent });

beforeEach(async () => {
  position = 0;
  await deleteKeys(redis, prefix);
});
afterAll(async () => {
  await deleteKeys(redis, prefix);
  redis.disconnect();
});

describe('withdrawals projection: the stat cards (real Redis)', () => {
  it('counts a rejected request out of the total amount and into the rejected amount (issue 22, item 10)', async () => {
    const [paid, refused, waiting] = [randomUUID(), randomUUID(), randomUUID()];
    await runner.applyBatch([
      requested(paid, 500_000, 1),
      requested(refused, 1_250_050, 2),
      requested(waiting, 300_000, 3),
      recorded('WithdrawalCompleted', { memberId, withdrawalId: paid, processedAt: at }),
      recorded('WithdrawalRejected', { memberId, withdrawalId: refused, reason: 'Account name does not match', rejectedAt: at }),
    ]);
    expect(await redis.hgetall(keys.withdrawalStats)).toEqual({
      total: '3',
      pending: '1',
      processed: '1',
      rejected: '1',
      // ₱5,000.00 paid + ₱3,000.00 pending; the ₱12,500.50 refused is apart.
      totalAmountCentavos: '800000',
      rejectedAmountCentavos: '1250050',
    });
  });

  it('changes nothing when a rejection is applied again', async () => {
    const refused = randomUUID();
    const events = [requested(refused, 1_000_000, 1), recorded('WithdrawalRejected', { memberId, withdrawalId: refused, reason: 'Duplicate', rejectedAt: at })];
    await runner.applyBatch(events);
    const before = await snapshotKeys(redis, prefix);
    expect(await runner.applyBatch(events)).toEqual({ applied: 0, skipped: 2 });
    expect(await snapshotKeys(redis, prefix)).toEqual(before);
    expect(await redis.hget(keys.withdrawalStats, 'totalAmountCentavos')).toBe('0');
  });
});
