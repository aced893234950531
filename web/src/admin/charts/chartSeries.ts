import type { AdminDailyStatsAnswer } from '@honeylend/contracts';
import { statusLabel } from '../../shared/money';
import { loanStatusChartColour } from '../borrowing/loanStatusColours';

/** "2026-11-23" → "Nov 23" (the dates are Manila calendar days already; no time zone shift). */
export function shortDay(date: string): string {
  const [, month, day] = date.split('-').map(Number) as [number, number, number];
  const name = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][month - 1] ?? '?';
  return `${name} ${day}`;
}

export interface DaySeriesPoint {
  day: string;
  count: number;
  amount: number;
}

export interface StatusSeriesPoint {
  status: string;
  amount: number;
  count: number;
  /** The status's colour in the borrowing list's tags, so a slice reads like its rows. */
  colour: string;
}

/** The three charts' data from GET /api/admin/stats/daily, in the order the answer gives (oldest day first). */
export function chartSeries(answer: AdminDailyStatsAnswer): { loans: DaySeriesPoint[]; withdrawals: DaySeriesPoint[]; byStatus: StatusSeriesPoint[] } {
  return {
    loans: answer.days.map((day) => ({ day: shortDay(day.date), count: day.loanApplications, amount: day.loanAmount })),
    withdrawals: answer.days.map((day) => ({ day: shortDay(day.date), count: day.withdrawals, amount: day.withdrawalAmount })),
    byStatus: answer.loanAmountByStatus
      .filter((entry) => entry.count > 0 || entry.amount > 0)
      .map((entry) => ({ status: statusLabel(entry.status), amount: entry.amount, count: entry.count, colour: loanStatusChartColour(entry.status) })),
  };
}

/** A slice's share of the whole, as a whole percent ("<1%" for a sliver, so no slice reads 0 %). */
export function shareOf(amount: number, total: number): string {
  if (total <= 0 || amount <= 0) return '';
  const percent = (amount / total) * 100;
  return percent < 1 ? '<1%' : `${Math.round(percent)}%`;
}
