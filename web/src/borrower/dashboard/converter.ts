import type { RatePoint } from '@honeylend/contracts';

/** Spec §2: the converter's amount keeps only digits and one decimal point (the first one typed). */
export function filterAmountInput(raw: string): string {
  let seenDot = false;
  let kept = '';
  for (const character of raw) {
    if (character >= '0' && character <= '9') kept += character;
    else if (character === '.' && !seenDot) {
      seenDot = true;
      kept += character;
    }
  }
  return kept;
}

/** Spec §9: rates show 2 to 6 decimals — enough significant digits for small rates, no more for large ones. */
export function rateDecimals(rate: number): number {
  if (!Number.isFinite(rate) || rate <= 0) return 2;
  const magnitude = Math.floor(Math.log10(rate));
  return Math.min(6, Math.max(2, 3 - magnitude));
}

export function formatRate(rate: number): string {
  const decimals = rateDecimals(rate);
  return rate.toLocaleString('en-PH', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
}

export interface RateTrend {
  direction: 'up' | 'down' | 'flat';
  /** Change from the day before the last to the last, in percent. */
  changePercent: number;
  /** The points drawn: the last seven days that really have a rate. */
  points: RatePoint[];
}

export const TREND_DAYS = 7;

/** Design §7: the trend comes from real stored days only; fewer than two days means no trend yet (null). */
export function trendOf(history: readonly RatePoint[] | undefined): RateTrend | null {
  const points = (history ?? []).slice(-TREND_DAYS);
  if (points.length < 2) return null;
  const previous = points[points.length - 2].rate;
  const last = points[points.length - 1].rate;
  const changePercent = ((last - previous) / previous) * 100;
  const rounded = Math.round(changePercent * 100) / 100;
  return { direction: rounded > 0 ? 'up' : rounded < 0 ? 'down' : 'flat', changePercent: rounded, points };
}

/** The sparkline's polyline points in a width × height box (higher rate, higher line). */
export function sparklinePoints(points: readonly RatePoint[], width: number, height: number, padding = 4): string {
  const rates = points.map((point) => point.rate);
  const min = Math.min(...rates);
  const max = Math.max(...rates);
  const span = max - min || 1;
  const step = points.length > 1 ? (width - padding * 2) / (points.length - 1) : 0;
  return rates
    .map((rate, index) => {
      const x = padding + index * step;
      const y = max === min ? height / 2 : padding + (1 - (rate - min) / span) * (height - padding * 2);
      return `${x.toFixed(1)},${y.toFixed(1)}`;
    })
    .join(' ');
}
