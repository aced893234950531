import type { Redis } from 'ioredis';
import { CONVERTER_CURRENCY_CODES, RATE_HISTORY_DAYS, manilaDate, manilaDayNumber, type JobKeys, type StoredRates } from '@honeylend/contracts';
import { rateHistoryMember } from '@honeylend/contracts/server';
import { execTransaction } from '../redisTransaction.js';

/**
 * Makes `rates` the latest and records them as their Manila day's history point, in one
 * transaction: a second fetch the same day replaces that day's point, and points older than
 * the kept window are dropped. Read back by `readRates`.
 */
export async function storeRates(redis: Redis, keys: JobKeys, rates: StoredRates, now: Date): Promise<void> {
  const asOf = new Date(rates.asOf);
  const day = manilaDayNumber(asOf);
  const date = manilaDate(asOf);
  const firstKeptDay = manilaDayNumber(now) - (RATE_HISTORY_DAYS - 1);

  const transaction = redis.multi().set(keys.ratesLatest, JSON.stringify(rates));
  for (const code of CONVERTER_CURRENCY_CODES) {
    const historyKey = keys.ratesHistory(code);
    transaction
      .zremrangebyscore(historyKey, day, day)
      .zadd(historyKey, day, rateHistoryMember({ date, rate: rates.rates[code] }))
      .zremrangebyscore(historyKey, '-inf', `(${firstKeptDay}`);
  }
  await execTransaction(transaction);
}
