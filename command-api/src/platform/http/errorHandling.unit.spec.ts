import { Redis } from 'ioredis';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { AppendOutcomeUnknown } from '@honeylend/eventstore';
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

describe('an append whose outcome is unknown', () => {
  it('answers 503 OUTCOME_UNKNOWN with Retry-After and a message that does not invite a blind retry', () => {
    const answer = toApiError(new AppendOutcomeUnknown('member-1', 'append to member-1 not confirmed'));
    expect(answer.status).toBe(503);
    expect(answer.toBody()).toMatchObject({ code: 'OUTCOME_UNKNOWN', message: 'We could not confirm whether this went through. Please check in a moment before trying again.' });
    expect(answer.details?.retryAfterSeconds).toBe(5);
  });
});

describe('a body rule kept in its zod schema', () => {
  it('answers 400 with the code the rule names, its message and the field', () => {
    const schema = z.object({ status: z.string(), message: z.string().optional() }).superRefine((body, ctx) => {
      if (body.status === 'account_issue' && !body.message) ctx.addIssue({ code: 'custom', path: ['message'], message: 'Say what to fix', params: { apiCode: 'MESSAGE_REQUIRED' } });
    });
    const answer = toApiError(schema.safeParse({ status: 'account_issue' }).error);
    expect(answer.status).toBe(400);
    expect(answer.toBody()).toMatchObject({ code: 'MESSAGE_REQUIRED', message: 'Say what to fix', details: { fields: { message: 'Say what to fix' } } });
    expect(toApiError(schema.safeParse({ status: 7 }).error).toBody()).toMatchObject({ code: 'VALIDATION_FAILED' });
  });
});
