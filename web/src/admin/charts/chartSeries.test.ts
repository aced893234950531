import { describe, expect, it } from 'vitest';
import { chartSeries, shareOf, shortDay } from './chartSeries';

describe('the chart series', () => {
  it('turns GET /api/admin/stats/daily into the three charts, oldest day first, statuses without loans left out, each slice in its tag colour', () => {
    const series = chartSeries({
      days: [
        { date: '2026-11-22', loanApplications: 0, loanAmount: 0, withdrawals: 1, withdrawalAmount: 5000 },
        { date: '2026-11-23', loanApplications: 2, loanAmount: 370000, withdrawals: 0, withdrawalAmount: 0 },
      ],
      loanAmountByStatus: [
        { status: 'account_issue', count: 1, amount: 120000 },
        { status: 'denied', count: 0, amount: 0 },
        { status: 'site_visit', count: 2, amount: 300000 },
      ],
    });
    expect(series.loans).toEqual([
      { day: 'Nov 22', count: 0, amount: 0 },
      { day: 'Nov 23', count: 2, amount: 370000 },
    ]);
    expect(series.withdrawals.map((point) => point.count)).toEqual([1, 0]);
    expect(series.byStatus).toEqual([
      { status: 'Account issue', amount: 120000, count: 1, colour: '#fa8c16' },
      { status: 'Site visit', amount: 300000, count: 2, colour: '#722ed1' },
    ]);
  });

  it('reads the dates as calendar days, never shifted by a time zone', () => {
    expect(shortDay('2026-01-01')).toBe('Jan 1');
    expect(shortDay('2026-12-31')).toBe('Dec 31');
  });

  it('labels each slice of the donut with its share of the amount, a sliver as <1% (issue 22, item 19)', () => {
    expect(shareOf(750_000, 1_000_000)).toBe('75%');
    expect(shareOf(2_500, 1_000_000)).toBe('<1%');
    expect(shareOf(0, 1_000_000)).toBe('');
    expect(shareOf(1, 0)).toBe('');
  });
});
