import { appendFileSync } from 'node:fs';

export interface Figure {
  check: string;
  name: string;
  value: number | string;
  /** What the value should be (for the summary table), e.g. "0" or "≤ 100". */
  target?: string;
}

/**
 * Prints a check's figure and, when the runner asked for it (RESILIENCE_FIGURES_FILE), appends it
 * as one JSON line so scripts/test-resilience.mjs can print the table the README quotes.
 */
export function reportFigure(figure: Figure): void {
  const target = figure.target ? ` (target ${figure.target})` : '';
  process.stdout.write(`[figure] ${figure.check} — ${figure.name}: ${figure.value}${target}\n`);
  const file = process.env.RESILIENCE_FIGURES_FILE;
  if (file) appendFileSync(file, `${JSON.stringify({ ...figure, full: process.env.RESILIENCE_FULL === '1' })}\n`);
}

/** The p-th percentile (0–100) of the values, nearest-rank. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}
