/** One payment received `monthsFromStart` months after the money was lent. */
export interface CashFlow {
  monthsFromStart: number;
  amount: number;
}

/** Present value at monthly rate r of payments received later. */
export function presentValue(cashFlows: readonly CashFlow[], monthlyRate: number): number {
  let total = 0;
  for (const { monthsFromStart, amount } of cashFlows) total += amount / (1 + monthlyRate) ** monthsFromStart;
  return total;
}

function presentValueSlope(cashFlows: readonly CashFlow[], monthlyRate: number): number {
  let slope = 0;
  for (const { monthsFromStart, amount } of cashFlows) slope -= (monthsFromStart * amount) / (1 + monthlyRate) ** (monthsFromStart + 1);
  return slope;
}

// Far tighter than the 1e-10 the disclosure needs: at ₱4,000,000 over 60 months the present value moves
// billions of centavos per unit of rate, and the rate must reproduce the principal to within a centavo.
const RATE_TOLERANCE = 1e-15;
const MAX_ITERATIONS = 500;

/**
 * The monthly internal rate of return r ≥ 0 with `lent` = Σ amount / (1 + r)^monthsFromStart:
 * Newton's method kept inside a bracket that always holds the root, bisecting whenever a Newton step
 * would leave it. Payments that add up to no more than was lent earn 0.
 */
export function monthlyInternalRateOfReturn(lent: number, cashFlows: readonly CashFlow[]): number {
  if (!(lent > 0)) throw new RangeError(`the amount lent must be positive: ${lent}`);
  if (cashFlows.some(({ amount, monthsFromStart }) => amount < 0 || !(monthsFromStart > 0))) throw new RangeError('payments must be non-negative and come after the money was lent');
  const excess = (rate: number) => presentValue(cashFlows, rate) - lent;
  if (excess(0) <= 0) return 0;

  // The excess falls as the rate rises, from positive at 0 towards -lent; find a rate where it is negative.
  let low = 0;
  let high = 1;
  while (excess(high) > 0) {
    low = high;
    high *= 2;
    if (high > 1e6) throw new RangeError('no rate of return below 100,000,000 % a month fits these payments');
  }

  let rate = (low + high) / 2;
  for (let iteration = 0; iteration < MAX_ITERATIONS && high - low > RATE_TOLERANCE; iteration++) {
    const value = excess(rate);
    if (value === 0) return rate;
    if (value > 0) low = rate;
    else high = rate;
    const newtonRate = rate - value / presentValueSlope(cashFlows, rate);
    const nextRate = newtonRate > low && newtonRate < high ? newtonRate : (low + high) / 2;
    if (Math.abs(nextRate - rate) <= RATE_TOLERANCE * Math.max(1, rate)) return nextRate;
    rate = nextRate;
  }
  return rate;
}

/** A monthly rate compounded over twelve months. */
export function annualRateOf(monthlyRate: number): number {
  return (1 + monthlyRate) ** 12 - 1;
}
