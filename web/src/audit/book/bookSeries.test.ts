import { describe, expect, it } from 'vitest';
import { bookChartPoints } from './bookSeries';

describe('the book chart', () => {
  it('draws one line per measure in pesos, day by day', () => {
    const points = bookChartPoints([
      { date: '2026-11-22', position: 40, walletsCentavos: 8_000_000, outstandingPrincipalCentavos: 8_000_000, withdrawalsPendingCentavos: 0, withdrawalsPaidCentavos: 0, repaymentsCentavos: 0, members: 1 },
      { date: '2026-11-23', position: 52, walletsCentavos: 7_850_050, outstandingPrincipalCentavos: 8_000_000, withdrawalsPendingCentavos: 0, withdrawalsPaidCentavos: 150_000, repaymentsCentavos: 0, members: 2 },
    ]);
    expect(points.filter((point) => point.measure === 'Wallet balances')).toEqual([
      { date: '2026-11-22', measure: 'Wallet balances', pesos: 80_000 },
      { date: '2026-11-23', measure: 'Wallet balances', pesos: 78_500.5 },
    ]);
    expect(points.find((point) => point.date === '2026-11-23' && point.measure === 'Withdrawals paid')?.pesos).toBe(1_500);
    expect(new Set(points.map((point) => point.measure))).toEqual(new Set(['Wallet balances', 'Outstanding principal', 'Withdrawals paid', 'Repayments received']));
  });
});
