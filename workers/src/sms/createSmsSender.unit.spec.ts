import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { createJobKeys } from '@honeylend/contracts';
import { capturingLogger } from '../testing/capturingLogger.js';
import { createSmsSender } from './createSmsSender.js';
import { HttpSmsSender } from './httpSmsSender.js';
import { OutboxSmsSender } from './outboxSmsSender.js';

// Never connects: choosing a sender touches no Redis.
const redis = new Redis({ lazyConnect: true });
const dependencies = { redis, keys: createJobKeys(), logger: capturingLogger() };
afterAll(() => redis.disconnect());

describe('createSmsSender', () => {
  it('uses the development outbox when SMS_SENDER is unset or "outbox"', () => {
    expect(createSmsSender({}, dependencies)).toBeInstanceOf(OutboxSmsSender);
    expect(createSmsSender({ SMS_SENDER: 'outbox', NODE_ENV: 'development' }, dependencies)).toBeInstanceOf(OutboxSmsSender);
  });

  it('uses the HTTP gateway when SMS_SENDER=http with its URL and key', () => {
    const env = { SMS_SENDER: 'http', SMS_GATEWAY_URL: 'https://sms.example.test/send', SMS_API_KEY: 'k', NODE_ENV: 'production' };
    expect(createSmsSender(env, dependencies)).toBeInstanceOf(HttpSmsSender);
  });

  it('refuses SMS_SENDER=http without a URL or a key', () => {
    expect(() => createSmsSender({ SMS_SENDER: 'http', SMS_API_KEY: 'k' }, dependencies)).toThrow('SMS_SENDER=http needs SMS_GATEWAY_URL and SMS_API_KEY');
    expect(() => createSmsSender({ SMS_SENDER: 'http', SMS_GATEWAY_URL: 'https://sms.example.test' }, dependencies)).toThrow('SMS_SENDER=http needs SMS_GATEWAY_URL and SMS_API_KEY');
    expect(() => createSmsSender({ SMS_SENDER: 'http', SMS_GATEWAY_URL: 'not a url', SMS_API_KEY: 'k' }, dependencies)).toThrow('SMS_GATEWAY_URL is not a URL');
  });

  it('refuses the outbox in production, where codes must reach phones', () => {
    expect(() => createSmsSender({ NODE_ENV: 'production' }, dependencies)).toThrow(/development only/);
  });

  it('refuses an unknown sender rather than silently using the outbox', () => {
    expect(() => createSmsSender({ SMS_SENDER: 'HTTP' }, dependencies)).toThrow('SMS_SENDER must be "http" or "outbox", not "HTTP"');
  });

  it('refuses a timeout that is not a positive number of milliseconds', () => {
    const env = { SMS_SENDER: 'http', SMS_GATEWAY_URL: 'https://sms.example.test', SMS_API_KEY: 'k', SMS_TIMEOUT_MS: '10s' };
    expect(() => createSmsSender(env, dependencies)).toThrow('SMS_TIMEOUT_MS must be a positive whole number of milliseconds');
  });
});
