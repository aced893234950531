import type { Job } from 'bullmq';
import { UnrecoverableError } from 'bullmq';
import type { Redis } from 'ioredis';
import { ACCOUNT_CODE_QUEUE, accountCodeJobSchema, accountCodeKeys, accountCodeMessage, maskPhone, type JobKeys } from '@honeylend/contracts';
import { hashOtpCode, storeOtpChallenge, type StoreOtpChallengeResult } from '@honeylend/contracts/server';
import { describeError, withFields, type Logger } from '../logger.js';
import { SmsGatewayError } from '../sms/httpSmsSender.js';
import type { SmsDeliveries } from '../sms/smsDelivery.js';
import type { MemberSmsSender } from '../sms/smsSender.js';
import { otpCodeFromSeed, redactCode } from '../otp/otpCode.js';

export interface AccountCodeProcessorDependencies {
  redis: Redis;
  keys: JobKeys;
  sender: MemberSmsSender;
  deliveries: SmsDeliveries;
  logger: Logger;
  secret: string;
  ttlMs: number;
  clock: () => Date;
}

/**
 * A password-reset or phone-confirmation code: made here, stored only as its keyed hash in the
 * purpose's own slot, then texted — the same steps and the same once-only delivery as withdrawal
 * codes (otp/otpProcessor.ts), without the withdrawal's amount and delivery status.
 */
export function createAccountCodeProcessor(dependencies: AccountCodeProcessorDependencies) {
  const { redis, keys, sender, deliveries, secret, ttlMs, clock } = dependencies;

  return async function processAccountCodeJob(job: Job, _token?: string, signal?: AbortSignal): Promise<{ challengeId: string; outcome: 'sent' | Exclude<StoreOtpChallengeResult, 'stored'> }> {
    const parsed = accountCodeJobSchema.safeParse(job.data);
    if (!parsed.success) throw new UnrecoverableError(`invalid account-code job: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`);
    const { challengeId, memberId, phone, purpose, requestId } = parsed.data;
    const logger = withFields(dependencies.logger, { requestId });
    const sentTo = maskPhone(phone);
    const jobId = job.id ?? challengeId;
    const delivery = await deliveries.begin(ACCOUNT_CODE_QUEUE, jobId);
    if (delivery.sent) return { challengeId, outcome: 'sent' };
    const code = otpCodeFromSeed(secret, delivery.seed, delivery.sendNumber);
    const stored = await storeOtpChallenge(redis, accountCodeKeys(keys, purpose), {
      memberId,
      challengeId,
      amountCentavos: 0,
      codeHash: hashOtpCode(secret, challengeId, code),
      requestedAt: new Date(job.timestamp),
      now: clock(),
      ttlMs,
    });
    if (stored !== 'stored') {
      logger.info('account code not sent', { challengeId, memberId, purpose, reason: stored });
      return { challengeId, outcome: stored };
    }
    try {
      await sender.send({ to: phone, body: accountCodeMessage(purpose, code, ttlMs), memberId }, { idempotencyKey: delivery.idempotencyKey, ...(signal ? { signal } : {}) });
    } catch (error) {
      if (error instanceof SmsGatewayError) await deliveries.markRefused(ACCOUNT_CODE_QUEUE, jobId);
      const reason = redactCode(describeError(error), code);
      logger.warn('account code delivery failed', { challengeId, memberId, purpose, sentTo, attempt: job.attemptsMade + 1, error: reason });
      throw new Error(reason);
    }
    await deliveries.markSent(ACCOUNT_CODE_QUEUE, jobId);
    logger.info('account code sent', { challengeId, memberId, purpose, sentTo });
    return { challengeId, outcome: 'sent' };
  };
}
