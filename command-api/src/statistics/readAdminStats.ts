import { toAdminStatsAnswer, type AdminStatsAnswer } from '@honeylend/contracts';
import type { ApiDeps } from '../platform/context/context.js';

const count = (hash: Record<string, string>, field: string) => Number(hash[field] ?? 0);

/** The stat cards, from counters the projections keep as events arrive (three hash reads, no scan). */
export async function readAdminStats(deps: Pick<ApiDeps, 'redis' | 'readModels'>): Promise<AdminStatsAnswer> {
  const keys = deps.readModels.keys;
  const [withdrawals, loans, members] = await Promise.all([deps.redis.hgetall(keys.withdrawalStats), deps.redis.hgetall(keys.loanStats), deps.redis.hgetall(keys.memberStats)]);
  const byStatus: Record<string, number> = {};
  for (const [field, value] of Object.entries(loans)) {
    if (field.startsWith('status:') && Number(value) > 0) byStatus[field.slice('status:'.length)] = Number(value);
  }
  return toAdminStatsAnswer(
    {
      total: count(withdrawals, 'total'),
      processed: count(withdrawals, 'processed'),
      pending: count(withdrawals, 'pending'),
      rejected: count(withdrawals, 'rejected'),
      totalAmountCentavos: count(withdrawals, 'totalAmountCentavos'),
      rejectedAmountCentavos: count(withdrawals, 'rejectedAmountCentavos'),
    },
    { total: count(loans, 'total'), byStatus, totalAmountCentavos: count(loans, 'totalAmountCentavos'), disbursedAmountCentavos: count(loans, 'disbursedAmountCentavos') },
    {
      total: count(members, 'total'),
      active: count(members, 'active'),
      pending: count(members, 'pending'),
      suspended: count(members, 'suspended'),
      totalBalanceCentavos: count(members, 'totalBalanceCentavos'),
    },
  );
}
