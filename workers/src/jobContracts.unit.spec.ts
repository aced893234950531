import { describe, expect, it } from 'vitest';
import { CONVERTER_CURRENCIES, CONVERTER_CURRENCY_CODES, FALLBACK_RATES_PER_PESO, createJobKeys, manilaDate, notificationJobSchema, otpJobOptions, otpJobSchema, ratesAnswerSchema } from '@honeylend/contracts';
import { notificationMessage } from './notifications/notificationProcessor.js';

const otpJob = {
  challengeId: '8d0c8f8e-3d5b-4d8a-9c1e-2f4b6a7c9e01',
  memberId: '1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed',
  phone: '+639171234567',
  amountCentavos: 150_000,
};

describe('job contracts', () => {
  it('accept an OTP job and refuse one that carries a code', () => {
    expect(otpJobSchema.parse(otpJob)).toEqual(otpJob);
    expect(otpJobSchema.safeParse({ ...otpJob, code: '123456' }).success).toBe(false);
  });

  it('refuse an OTP job for a fraction of a centavo or a number not in E.164 form', () => {
    expect(otpJobSchema.safeParse({ ...otpJob, amountCentavos: 10.5 }).success).toBe(false);
    expect(otpJobSchema.safeParse({ ...otpJob, phone: '09171234567' }).success).toBe(false);
  });

  it('refuse a notification without a title', () => {
    const notification = { notificationId: otpJob.challengeId, memberId: otpJob.memberId, phone: otpJob.phone, title: ' ', message: 'm' };
    expect(notificationJobSchema.safeParse(notification).success).toBe(false);
  });

  it('enqueue OTP jobs under their challenge id, retried 5 times with exponential backoff', () => {
    expect(otpJobOptions(otpJob.challengeId)).toMatchObject({ jobId: otpJob.challengeId, attempts: 5, backoff: { type: 'exponential' } });
  });

  it('put every key under the configured prefix, BullMQ’s included', () => {
    const keys = createJobKeys('bench:7:');
    const all = [keys.queuePrefix, keys.otpChallenge('m'), keys.otpIssueThrottle('m'), keys.otpDeliveryStatus('m'), keys.smsOutbox, keys.ratesLatest, ...CONVERTER_CURRENCY_CODES.map((code) => keys.ratesHistory(code))];
    for (const key of all) expect(key.startsWith('bench:7:')).toBe(true);
    expect(new Set(all).size).toBe(all.length);
    expect(createJobKeys().otpChallenge('m')).toBe('otp:challenge:m');
  });

  it('list the spec’s eight converter currencies with its fallback rates', () => {
    expect(CONVERTER_CURRENCIES.map((currency) => currency.code)).toEqual(['USD', 'EUR', 'GBP', 'JPY', 'AUD', 'CAD', 'SGD', 'HKD']);
    expect(FALLBACK_RATES_PER_PESO).toEqual({ USD: 0.018, EUR: 0.016, GBP: 0.014, JPY: 2.65, AUD: 0.027, CAD: 0.024, SGD: 0.024, HKD: 0.141 });
  });

  it('describe a rates answer missing a currency as invalid', () => {
    const { USD: _dropped, ...sevenRates } = FALLBACK_RATES_PER_PESO;
    const history = Object.fromEntries(CONVERTER_CURRENCY_CODES.map((code) => [code, []]));
    expect(ratesAnswerSchema.safeParse({ base: 'PHP', rates: FALLBACK_RATES_PER_PESO, asOf: null, source: 'fallback', history }).success).toBe(true);
    expect(ratesAnswerSchema.safeParse({ base: 'PHP', rates: sevenRates, asOf: null, source: 'fallback', history }).success).toBe(false);
  });

  it('count days in Manila time (UTC+8)', () => {
    expect(manilaDate(new Date('2026-11-22T15:59:59Z'))).toBe('2026-11-22');
    expect(manilaDate(new Date('2026-11-22T16:00:00Z'))).toBe('2026-11-23');
  });
});

describe('notification texts', () => {
  it('read "Honeylend: <title> — <message>"', () => {
    expect(notificationMessage('Loan approved', 'Funds are in your wallet.')).toBe('Honeylend: Loan approved — Funds are in your wallet.');
  });
});
