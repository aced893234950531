import { CONVERTER_CURRENCY_CODES, type ConverterCurrency, type StoredRates } from '@honeylend/contracts';

export const DEFAULT_RATES_TIMEOUT_MS = 10_000;

/** The provider's answer (open.er-api.com shape); only `rates` is required. */
interface ProviderAnswer {
  result?: unknown;
  base_code?: unknown;
  time_last_update_unix?: unknown;
  rates?: unknown;
}

/**
 * Fetches units of each converter currency per peso. Throws unless every converter currency
 * has a positive rate, so a partial or broken answer never replaces good stored data.
 * `asOf` is the provider's own update time when it gives one, else the fetch time.
 */
export async function fetchRatesPerPeso(url: string, options: { fetchedAt: Date; timeoutMs?: number; signal?: AbortSignal }): Promise<StoredRates> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_RATES_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  let response: Response;
  try {
    response = await fetch(url, { headers: { accept: 'application/json' }, signal: options.signal ? AbortSignal.any([options.signal, timeout]) : timeout });
  } catch (error) {
    if (timeout.aborted) throw new Error(`rates service did not answer within ${timeoutMs} ms`);
    throw new Error(`rates service unreachable: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`rates service answered ${response.status}`);
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    throw new Error('rates service answered with something other than JSON');
  }
  if (typeof body !== 'object' || body === null) throw new Error('rates service answer is not an object');
  const answer = body as ProviderAnswer;
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- whatever the service put there is quoted in the error
  if (answer.result !== undefined && answer.result !== 'success') throw new Error(`rates service reported ${String(answer.result)}`);
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- whatever the service put there is quoted in the error
  if (answer.base_code !== undefined && answer.base_code !== 'PHP') throw new Error(`rates service answered for base ${String(answer.base_code)}, not PHP`);
  if (typeof answer.rates !== 'object' || answer.rates === null) throw new Error('rates service answer has no rates map');
  const provided = answer.rates as Record<string, unknown>;

  const rates = {} as Record<ConverterCurrency, number>;
  for (const code of CONVERTER_CURRENCY_CODES) {
    const rate = provided[code];
    if (typeof rate !== 'number' || !Number.isFinite(rate) || rate <= 0) throw new Error(`rates service gave no usable ${code} rate`);
    rates[code] = rate;
  }
  const updatedAt = answer.time_last_update_unix;
  const asOf = typeof updatedAt === 'number' && Number.isSafeInteger(updatedAt) && updatedAt > 0 ? new Date(updatedAt * 1000) : options.fetchedAt;
  return { base: 'PHP', rates, asOf: asOf.toISOString(), source: 'live' };
}
