import type { BookSeriesPoint } from '@honeylend/contracts';

export interface BookChartPoint {
  date: string;
  measure: string;
  pesos: number;
}

const MEASURES: Array<[keyof BookSeriesPoint, string]> = [
  ['walletsCentavos', 'Wallet balances'],
  ['outstandingPrincipalCentavos', 'Outstanding principal'],
  ['withdrawalsPaidCentavos', 'Withdrawals paid'],
  ['repaymentsCentavos', 'Repayments received'],
];

/** The book at the end of each day, one line per measure, in pesos. */
export function bookChartPoints(series: readonly BookSeriesPoint[]): BookChartPoint[] {
  return series.flatMap((point) => MEASURES.map(([field, measure]) => ({ date: point.date, measure, pesos: (point[field] as number) / 100 })));
}
