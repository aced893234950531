import type { Redis } from 'ioredis';
import type { JobKeys } from '@honeylend/contracts';
import { devDefaultsAllowed } from '@honeylend/contracts/server';
import type { Logger } from '../logger.js';
import { HttpSmsSender } from './httpSmsSender.js';
import { OutboxSmsSender } from './outboxSmsSender.js';
import type { SmsSender } from './smsSender.js';

export type WorkerEnv = Readonly<Record<string, string | undefined>>;

export const DEFAULT_SMS_SENDER_NAME = 'Honeylend';

/**
 * SMS_SENDER=http sends through the gateway (SMS_GATEWAY_URL, SMS_API_KEY, optional
 * SMS_SENDER_NAME and SMS_TIMEOUT_MS); unset or `outbox` keeps texts in the development outbox,
 * which only development and test accept (see devDefaultsAllowed): elsewhere a code must really reach the phone.
 */
export function createSmsSender(env: WorkerEnv, dependencies: { redis: Redis; keys: JobKeys; logger: Logger }): SmsSender {
  const kind = env.SMS_SENDER === undefined || env.SMS_SENDER === '' ? 'outbox' : env.SMS_SENDER;
  if (kind === 'http') {
    const gatewayUrl = env.SMS_GATEWAY_URL;
    const apiKey = env.SMS_API_KEY;
    if (!gatewayUrl || !apiKey) throw new Error('SMS_SENDER=http needs SMS_GATEWAY_URL and SMS_API_KEY');
    if (!URL.canParse(gatewayUrl)) throw new Error(`SMS_GATEWAY_URL is not a URL: ${gatewayUrl}`);
    const timeoutMs = env.SMS_TIMEOUT_MS === undefined ? undefined : Number(env.SMS_TIMEOUT_MS);
    if (timeoutMs !== undefined && !(Number.isInteger(timeoutMs) && timeoutMs > 0)) throw new Error('SMS_TIMEOUT_MS must be a positive whole number of milliseconds');
    return new HttpSmsSender({ gatewayUrl, apiKey, senderName: env.SMS_SENDER_NAME || DEFAULT_SMS_SENDER_NAME, ...(timeoutMs === undefined ? {} : { timeoutMs }) });
  }
  if (kind === 'outbox') {
    if (!devDefaultsAllowed(env)) throw new Error(`SMS_SENDER=outbox is for development only (NODE_ENV=${env.NODE_ENV}); set SMS_SENDER=http`);
    return new OutboxSmsSender(dependencies.redis, dependencies.keys, dependencies.logger);
  }
  throw new Error(`SMS_SENDER must be "http" or "outbox", not "${kind}"`);
}
