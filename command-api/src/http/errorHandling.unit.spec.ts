import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { toApiError } from './errorHandling.js';

/**
 * What the request-path Redis connections (no offline queue, 2 s command timeout) throw while Redis
 * is away must answer 503 with a message, never 500.
 */
describe('Redis unavailable', () => {
  it('answers 503 for a command refused while the connection is down and for one a hung server left unanswered', async () => {
    // A closed local port: the connection never comes up, so the command is refused at once.
    const redis = new Redis('redis://127.0.0.1:9', { enableOfflineQueue: false, commandTimeout: 2_000, lazyConnect: true, retryStrategy: () => null });
    redis.on('error', () => undefined);
    const refused = await redis.get('any').catch((error: unknown) => error);
    redis.disconnect();
    for (const error of [refused, new Error('Command timed out')]) {
      const answer = toApiError(error);
      expect(answer.status).toBe(503);
      expect(answer.toBody()).toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: expect.any(String) });
    }
  });
});
