import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CONVERTER_CURRENCY_CODES, FALLBACK_RATES_PER_PESO, createJobKeys, type JobKeys } from '@honeylend/contracts';
import { readRates } from '@honeylend/contracts/server';
import { capturingLogger } from '../testing/capturingLogger.js';
import { answerJson, startLocalHttpServer, type LocalHttpServer } from '../testing/localHttpServer.js';
import { connectTestRedis, deleteKeysWithPrefix, uniqueKeyPrefix } from '../testing/redisForTests.js';
import { refreshRates } from './refreshRates.js';

const redis = connectTestRedis();
const prefixes: string[] = [];
let keys: JobKeys;
let logger: ReturnType<typeof capturingLogger>;

// What the stand-in rates service answers next.
let nextAnswer: { status: number; body: unknown } = { status: 200, body: {} };
let service: LocalHttpServer;

beforeAll(async () => {
  service = await startLocalHttpServer((_request, response) => answerJson(response, nextAnswer.status, nextAnswer.body));
});
beforeEach(() => {
  // A fresh prefix per test: each starts with no rates stored.
  const prefix = uniqueKeyPrefix();
  prefixes.push(prefix);
  keys = createJobKeys(prefix);
  logger = capturingLogger();
});
afterAll(async () => {
  await service.close();
  for (const prefix of prefixes) await deleteKeysWithPrefix(redis, prefix);
  await redis.quit();
});

/** A provider answer where every converter rate is `factor` times the fallback rate. */
function providerAnswer(factor: number, extra: Record<string, unknown> = {}) {
  const rates: Record<string, number> = { PHP: 1, XAU: 0.0000071 };
  for (const code of CONVERTER_CURRENCY_CODES) rates[code] = FALLBACK_RATES_PER_PESO[code] * factor;
  return { result: 'success', base_code: 'PHP', rates, ...extra };
}

async function refreshAt(isoTime: string, answer: { status: number; body: unknown }) {
  nextAnswer = answer;
  return refreshRates({ redis, keys, logger, ratesUrl: `${service.url}/v6/latest/PHP`, clock: () => new Date(isoTime) });
}

describe('exchange rates', () => {
  it('serves the spec’s fallback rates, labelled fallback with no date, before any fetch', async () => {
    expect(await readRates(redis, keys, new Date('2026-11-22T02:00:00Z'))).toEqual({
      base: 'PHP',
      rates: FALLBACK_RATES_PER_PESO,
      asOf: null,
      source: 'fallback',
      history: Object.fromEntries(CONVERTER_CURRENCY_CODES.map((code) => [code, []])),
    });
  });

  it('stores the eight converter rates as live, with one history point for the day', async () => {
    expect(await refreshAt('2026-11-22T02:00:00.000Z', { status: 200, body: providerAnswer(1.01) })).toEqual({ stored: true, asOf: '2026-11-22T02:00:00.000Z' });

    const answer = await readRates(redis, keys, new Date('2026-11-22T03:00:00Z'));
    expect(answer.source).toBe('live');
    expect(answer.asOf).toBe('2026-11-22T02:00:00.000Z');
    expect(Object.keys(answer.rates).sort()).toEqual([...CONVERTER_CURRENCY_CODES].sort());
    expect(answer.rates.USD).toBeCloseTo(0.01818, 10);
    expect(answer.rates.JPY).toBeCloseTo(2.6765, 10);
    expect(answer.history.USD).toEqual([{ date: '2026-11-22', rate: answer.rates.USD }]);
    expect(answer.history.HKD).toEqual([{ date: '2026-11-22', rate: answer.rates.HKD }]);
  });

  it('overwrites the day’s point on a second fetch that day and adds a point the next day, oldest first', async () => {
    await refreshAt('2026-11-22T01:00:00Z', { status: 200, body: providerAnswer(1) });
    await refreshAt('2026-11-22T09:00:00Z', { status: 200, body: providerAnswer(1.02) });
    await refreshAt('2026-11-23T01:00:00Z', { status: 200, body: providerAnswer(0.99) });

    const answer = await readRates(redis, keys, new Date('2026-11-23T02:00:00Z'));
    expect(answer.history.USD).toEqual([
      { date: '2026-11-22', rate: 0.018 * 1.02 },
      { date: '2026-11-23', rate: 0.018 * 0.99 },
    ]);
    expect(answer.rates.USD).toBe(0.018 * 0.99);
  });

  it('counts days in Manila time, where 00:30 on the 23rd is still the 22nd in UTC', async () => {
    await refreshAt('2026-11-22T16:30:00Z', { status: 200, body: providerAnswer(1) });
    expect((await readRates(redis, keys, new Date('2026-11-22T17:00:00Z'))).history.EUR).toEqual([{ date: '2026-11-23', rate: 0.016 }]);
  });

  it('dates the rates by the provider’s update time when it gives one', async () => {
    const updatedAt = Date.UTC(2026, 10, 22, 0, 2, 31) / 1000;
    await refreshAt('2026-11-22T05:00:00Z', { status: 200, body: providerAnswer(1, { time_last_update_unix: updatedAt }) });
    expect((await readRates(redis, keys, new Date('2026-11-22T05:00:00Z'))).asOf).toBe('2026-11-22T00:02:31.000Z');
  });

  it('keeps the last 30 days of history', async () => {
    for (let day = 1; day <= 32; day += 1) {
      await refreshAt(new Date(Date.UTC(2026, 9, day, 4)).toISOString(), { status: 200, body: providerAnswer(1 + day / 1000) });
    }
    const now = new Date(Date.UTC(2026, 10, 1, 5));
    const history = (await readRates(redis, keys, now)).history.GBP;
    expect(history).toHaveLength(30);
    expect(history[0]?.date).toBe('2026-10-03');
    expect(history.at(-1)?.date).toBe('2026-11-01');
    expect(await redis.zcard(keys.ratesHistory('GBP'))).toBe(30);
  });

  it('serves only history of the last 30 days before the time asked about', async () => {
    await refreshAt('2026-11-01T04:00:00Z', { status: 200, body: providerAnswer(1) });
    await refreshAt('2026-11-20T04:00:00Z', { status: 200, body: providerAnswer(1.01) });
    const answer = await readRates(redis, keys, new Date('2026-12-05T04:00:00Z'));
    expect(answer.history.USD.map((point) => point.date)).toEqual(['2026-11-20']);
    expect(answer.source).toBe('live');
  });

  describe('a failed fetch logs and leaves the stored rates and history alone', () => {
    const failures: [string, { status: number; body: unknown }, string][] = [
      ['an error status', { status: 500, body: { error: 'down' } }, 'rates service answered 500'],
      ['a provider error', { status: 200, body: { result: 'error', 'error-type': 'unsupported-code' } }, 'rates service reported error'],
      ['another base currency', { status: 200, body: { ...providerAnswer(1), base_code: 'USD' } }, 'rates service answered for base USD, not PHP'],
      ['a missing currency', { status: 200, body: { result: 'success', rates: { USD: 0.018 } } }, 'rates service gave no usable EUR rate'],
      ['a zero rate', { status: 200, body: providerAnswer(0) }, 'rates service gave no usable USD rate'],
      ['no rates at all', { status: 200, body: { result: 'success' } }, 'rates service answer has no rates map'],
    ];

    it.each(failures)('on %s', async (_case, answer, error) => {
      await refreshAt('2026-11-22T01:00:00Z', { status: 200, body: providerAnswer(1) });
      const before = await readRates(redis, keys, new Date('2026-11-22T10:00:00Z'));

      expect(await refreshAt('2026-11-22T09:00:00Z', answer)).toEqual({ stored: false, error });
      expect(await readRates(redis, keys, new Date('2026-11-22T10:00:00Z'))).toEqual(before);
      expect(logger.lines.filter((line) => line.level === 'warn').map((line) => line.fields?.error)).toEqual([error]);
    });

    it('on an unreachable service, before anything was stored: still the fallback', async () => {
      const gone = await startLocalHttpServer(() => undefined);
      await gone.close();
      const result = await refreshRates({ redis, keys, logger, ratesUrl: gone.url, clock: () => new Date() });
      expect(result.stored).toBe(false);
      expect((await readRates(redis, keys, new Date())).source).toBe('fallback');
    });

    it('on a service too slow to answer', async () => {
      const slow = await startLocalHttpServer(() => undefined);
      const result = await refreshRates({ redis, keys, logger, ratesUrl: slow.url, clock: () => new Date(), timeoutMs: 100 });
      await slow.close();
      expect(result).toEqual({ stored: false, error: 'rates service did not answer within 100 ms' });
    });
  });
});
