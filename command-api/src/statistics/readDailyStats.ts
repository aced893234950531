import {
  BUILT_IN_LOAN_STATUSES,
  DAILY_ACTIVITY_FIELDS,
  dailyStatsKeys,
  formatCalendarDate,
  manilaDateOf,
  toAdminDailyStatsAnswer,
  type AdminDailyStatsAnswer,
  type DailyActivity,
  type LoanAmountOfStatus,
} from '@honeylend/contracts';
import type { ApiDeps } from '../platform/context/context.js';

const DAY_MILLISECONDS = 24 * 60 * 60 * 1000;

/** The `days` Manila calendar dates ending with today's, oldest first. */
export function manilaDatesEndingAt(now: Date, days: number): string[] {
  const dates: string[] = [];
  // Manila has no daylight saving, so stepping back whole days of milliseconds lands on each calendar day once.
  for (let back = days - 1; back >= 0; back--) dates.push(formatCalendarDate(manilaDateOf(new Date(now.getTime() - back * DAY_MILLISECONDS).toISOString())));
  return dates;
}

/**
 * The charts' figures from the daily-stats projection's counters: one HMGET for the days, one
 * HGETALL for the statuses. Built-in statuses are always listed (zeros included), in the order of
 * the status machine; custom statuses follow by name while they hold a loan.
 */
export async function readDailyStats(deps: Pick<ApiDeps, 'redis' | 'readModels' | 'now'>, days: number): Promise<AdminDailyStatsAnswer> {
  const keys = dailyStatsKeys(deps.readModels.keys);
  const dates = manilaDatesEndingAt(deps.now(), days);
  const fields = dates.flatMap((date) => DAILY_ACTIVITY_FIELDS.map((field) => keys.dailyField(date, field)));
  const [values, byStatusHash] = await Promise.all([deps.redis.hmget(keys.daily, ...fields), deps.redis.hgetall(keys.loanAmountByStatus)]);
  const activity: DailyActivity[] = dates.map((date, d) => {
    const at = (f: number) => Number(values[d * DAILY_ACTIVITY_FIELDS.length + f] ?? 0);
    return { date, loanApplications: at(0), loanAmountCentavos: at(1), withdrawals: at(2), withdrawalAmountCentavos: at(3) };
  });

  const statusOf = (status: string): LoanAmountOfStatus => ({
    status,
    count: Number(byStatusHash[`count:${status}`] ?? 0),
    amountCentavos: Number(byStatusHash[`amountCentavos:${status}`] ?? 0),
  });
  const builtIn: readonly string[] = BUILT_IN_LOAN_STATUSES;
  const custom = Object.keys(byStatusHash)
    .filter((field) => field.startsWith('count:'))
    .map((field) => field.slice('count:'.length))
    .filter((status) => !builtIn.includes(status))
    .sort()
    .map(statusOf)
    .filter((entry) => entry.count > 0);
  return toAdminDailyStatsAnswer(activity, [...builtIn.map(statusOf), ...custom]);
}
