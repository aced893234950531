/** Money is integer centavos inside the system; pesos exist only at the API and UI edge. */
export type Centavos = number;

export const CENTAVOS_PER_PESO = 100;

/** Converts an API peso amount (at most two decimals) to integer centavos. */
export function pesosToCentavos(pesos: number): Centavos {
  if (!Number.isFinite(pesos)) throw new RangeError(`not a finite peso amount: ${pesos}`);
  // Rounding guards against binary fractions such as 0.29 * 100 = 28.999999999999996.
  return Math.round(pesos * CENTAVOS_PER_PESO);
}

export function centavosToPesos(centavos: Centavos): number {
  if (!Number.isSafeInteger(centavos)) throw new RangeError(`centavos must be a safe integer: ${centavos}`);
  return centavos / CENTAVOS_PER_PESO;
}

/** True when a peso amount has no more than two decimals (no fractions of a centavo). */
export function hasWholeCentavos(pesos: number): boolean {
  return Number.isFinite(pesos) && Math.abs(pesos * CENTAVOS_PER_PESO - Math.round(pesos * CENTAVOS_PER_PESO)) < 1e-6;
}

// Made on first use, not when the module loads: the first Intl formatter of a page is costly (the
// locale's data), and this module is in the browser app's first script, whose evaluation was the
// dashboard's longest task on a phone (issue 20's total blocking time).
let pesoFormatter: Intl.NumberFormat | undefined;

/** Formats centavos as the UI shows them: ₱80,000.00 */
export function formatPesos(centavos: Centavos): string {
  const sign = centavos < 0 ? '-' : '';
  pesoFormatter ??= new Intl.NumberFormat('en-PH', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return `${sign}₱${pesoFormatter.format(Math.abs(centavos) / CENTAVOS_PER_PESO)}`;
}
