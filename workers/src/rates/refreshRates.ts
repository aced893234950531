import type { Redis } from 'ioredis';
import type { JobKeys } from '@honeylend/contracts';
import { describeError, type Logger } from '../logger.js';
import { fetchRatesPerPeso } from './fetchRates.js';
import { storeRates } from './storeRates.js';

export type RatesRefreshResult = { stored: true; asOf: string } | { stored: false; error: string };

export interface RatesRefreshDependencies {
  redis: Redis;
  keys: JobKeys;
  logger: Logger;
  ratesUrl: string;
  clock: () => Date;
  timeoutMs?: number;
}

/**
 * One refresh: fetch, then store. A failed fetch is logged and leaves the stored rates and
 * history as they were; readers keep serving the last good rates (or the labelled fallback).
 */
export async function refreshRates(dependencies: RatesRefreshDependencies, signal?: AbortSignal): Promise<RatesRefreshResult> {
  const { redis, keys, logger, ratesUrl, clock, timeoutMs } = dependencies;
  let rates;
  try {
    rates = await fetchRatesPerPeso(ratesUrl, { fetchedAt: clock(), ...(timeoutMs === undefined ? {} : { timeoutMs }), ...(signal ? { signal } : {}) });
  } catch (error) {
    const reason = describeError(error);
    logger.warn('exchange rates not refreshed; keeping the stored rates', { url: ratesUrl, error: reason });
    return { stored: false, error: reason };
  }
  await storeRates(redis, keys, rates, clock());
  logger.info('exchange rates refreshed', { asOf: rates.asOf });
  return { stored: true, asOf: rates.asOf };
}
