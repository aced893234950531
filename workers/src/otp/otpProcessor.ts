import type { Job } from 'bullmq';
import { UnrecoverableError } from 'bullmq';
import type { Redis } from 'ioredis';
import { maskPhone, otpJobSchema, type JobKeys } from '@honeylend/contracts';
import { hashOtpCode, storeOtpChallenge, type StoreOtpChallengeResult } from '@honeylend/contracts/server';
import { describeError, type Logger } from '../logger.js';
import type { SmsSender } from '../sms/smsSender.js';
import { generateOtpCode, otpMessage, redactCode } from './otpCode.js';
import { recordOtpFailure, recordOtpSent } from './otpDeliveryStatus.js';

export interface OtpProcessorDependencies {
  redis: Redis;
  keys: JobKeys;
  sender: SmsSender;
  logger: Logger;
  secret: string;
  ttlMs: number;
  clock: () => Date;
}

/** What a finished OTP job leaves in BullMQ: never the code. */
export interface OtpJobResult {
  challengeId: string;
  outcome: 'sent' | Exclude<StoreOtpChallengeResult, 'stored'>;
}

/**
 * Generates a code, stores only its keyed hash as the member's challenge, then texts the code.
 * The record is written before the text so a fast reader never meets a code that is not yet
 * valid; a retry after a failed send makes a fresh code and replaces the undelivered one.
 * The code lives only in this function's variables and the outgoing text.
 */
export function createOtpProcessor(dependencies: OtpProcessorDependencies) {
  const { redis, keys, sender, logger, secret, ttlMs, clock } = dependencies;

  return async function processOtpJob(job: Job, _token?: string, signal?: AbortSignal): Promise<OtpJobResult> {
    const parsed = otpJobSchema.safeParse(job.data);
    if (!parsed.success) throw new UnrecoverableError(`invalid OTP job: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`);
    const { challengeId, memberId, phone, amountCentavos } = parsed.data;
    const sentTo = maskPhone(phone);
    const attempt = job.attemptsMade + 1;

    const code = generateOtpCode();
    const stored = await storeOtpChallenge(redis, keys, {
      memberId,
      challengeId,
      amountCentavos,
      codeHash: hashOtpCode(secret, challengeId, code),
      requestedAt: new Date(job.timestamp),
      now: clock(),
      ttlMs,
    });
    if (stored !== 'stored') {
      logger.info('OTP not sent', { challengeId, memberId, reason: stored });
      return { challengeId, outcome: stored };
    }

    try {
      await sender.send({ to: phone, body: otpMessage(code, ttlMs) }, signal ? { signal } : {});
    } catch (error) {
      const reason = redactCode(describeError(error), code);
      const final = attempt >= (job.opts.attempts ?? 1);
      await recordOtpFailure(redis, keys, { memberId, challengeId, sentTo, at: clock(), error: reason, final });
      logger.warn('OTP delivery failed', { challengeId, memberId, sentTo, attempt, final, error: reason });
      // A fresh error, so neither its message nor a chained cause can carry the code into BullMQ.
      throw new Error(reason);
    }

    await recordOtpSent(redis, keys, { memberId, challengeId, sentTo, at: clock() });
    logger.info('OTP sent', { challengeId, memberId, sentTo, attempt });
    return { challengeId, outcome: 'sent' };
  };
}
