import { z } from 'zod';
import { centavosToPesos } from './money.js';
import type { ReadModelKeys } from './readModels.js';

/** `?days=` of GET /api/admin/stats/daily: how many Manila calendar days, ending today. */
export const ADMIN_DAILY_STATS_DAYS = { min: 1, max: 90, default: 14 } as const;

const calendarDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const count = z.number().int().nonnegative();
const pesos = z.number().nonnegative();

/** GET /api/admin/stats/daily: the admin console's charts, from counters the daily-stats projection keeps. */
export const adminDailyStatsAnswerSchema = z
  .object({
    /** Oldest first, ending today in Manila; every day present, zeros included. */
    days: z.array(z.object({ date: calendarDate, loanApplications: count, loanAmount: pesos, withdrawals: count, withdrawalAmount: pesos }).strict()),
    /** Loans on the books per current status, with their principal. */
    loanAmountByStatus: z.array(z.object({ status: z.string(), count, amount: pesos }).strict()),
  })
  .strict();
export type AdminDailyStatsAnswer = z.infer<typeof adminDailyStatsAnswerSchema>;

/** One Manila day's counters as the projection keeps them (centavos). */
export interface DailyActivity {
  date: string;
  loanApplications: number;
  loanAmountCentavos: number;
  withdrawals: number;
  withdrawalAmountCentavos: number;
}

export interface LoanAmountOfStatus {
  status: string;
  count: number;
  amountCentavos: number;
}

export const DAILY_ACTIVITY_FIELDS = ['loanApplications', 'loanAmountCentavos', 'withdrawals', 'withdrawalAmountCentavos'] as const;
export type DailyActivityField = (typeof DAILY_ACTIVITY_FIELDS)[number];

/**
 * Keys of the daily-stats read model, under the read models' prefix so a rebuild produces and
 * swaps them like every other read model.
 */
export function dailyStatsKeys(keys: Pick<ReadModelKeys, 'prefix'>) {
  return {
    /** Hash "<YYYY-MM-DD>:<DailyActivityField>" → integer (centavos for amounts). */
    daily: `${keys.prefix}stats:daily`,
    dailyField: (date: string, field: DailyActivityField) => `${date}:${field}`,
    /** Hash "count:<status>" and "amountCentavos:<status>" → integer. */
    loanAmountByStatus: `${keys.prefix}stats:loan-amount-by-status`,
    /** JSON { status, amountCentavos } of one loan as this projection last saw it, so a status change knows what to move. */
    trackedLoan: (loanId: string) => `${keys.prefix}stats:loan:${loanId}`,
  };
}

export function toAdminDailyStatsAnswer(days: DailyActivity[], byStatus: LoanAmountOfStatus[]): AdminDailyStatsAnswer {
  return {
    days: days.map((day) => ({
      date: day.date,
      loanApplications: day.loanApplications,
      loanAmount: centavosToPesos(day.loanAmountCentavos),
      withdrawals: day.withdrawals,
      withdrawalAmount: centavosToPesos(day.withdrawalAmountCentavos),
    })),
    loanAmountByStatus: byStatus.map((entry) => ({ status: entry.status, count: entry.count, amount: centavosToPesos(entry.amountCentavos) })),
  };
}
