import type { Job } from 'bullmq';
import { UnrecoverableError } from 'bullmq';
import type { Redis } from 'ioredis';
import { JOB_NAMES, QUEUE_NAMES, bankChangeCodeJobSchema, formatPesos, maskPhone, otpJobSchema, type JobKeys } from '@honeylend/contracts';
import { hashOtpCode, storeBankChangeChallenge, storeOtpChallenge, type StoreOtpChallengeResult } from '@honeylend/contracts/server';
import { describeError, withFields, type Logger } from '../logger.js';
import { SmsGatewayError } from '../sms/httpSmsSender.js';
import type { SmsDeliveries } from '../sms/smsDelivery.js';
import type { MemberSmsSender } from '../sms/smsSender.js';
import { bankChangeCodeMessage, otpCodeFromSeed, otpMessage, redactCode } from './otpCode.js';
import { recordOtpFailure, recordOtpSent } from './otpDeliveryStatus.js';

export interface OtpProcessorDependencies {
  redis: Redis;
  keys: JobKeys;
  sender: MemberSmsSender;
  /** Each job's delivery record: a job re-run after its worker died texts nothing twice. */
  deliveries: SmsDeliveries;
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
 * Makes the code, stores only its keyed hash as the member's challenge, then texts the code.
 * The record is written before the text so a fast reader never meets a code that is not yet
 * valid; a retry after a send the gateway refused makes a fresh code and replaces the undelivered
 * one, while a re-run whose earlier send may have got through (its worker died) rebuilds the same
 * code and sends under the same idempotency key, or sends nothing when the text is known to have
 * been accepted (sms/smsDelivery.ts). The code lives only in this function's variables and the
 * outgoing text.
 */
export function createOtpProcessor(dependencies: OtpProcessorDependencies) {
  const { redis, keys, sender, deliveries, secret, ttlMs, clock } = dependencies;

  /** The two kinds of code this queue carries: what each is bound to, where it is kept, what its text says. */
  const codeKind = (job: Job) => {
    if (job.name === JOB_NAMES.sendBankChangeCode) {
      const parsed = bankChangeCodeJobSchema.safeParse(job.data);
      if (!parsed.success) return { issues: parsed.error.issues };
      const { binding, destination, ...common } = parsed.data;
      return {
        ...common,
        store: (challenge: { challengeId: string; codeHash: string; requestedAt: Date; now: Date }) => storeBankChangeChallenge(redis, keys, { ...challenge, memberId: common.memberId, binding, ttlMs }),
        message: (code: string) => bankChangeCodeMessage(code, ttlMs, destination),
      };
    }
    const parsed = otpJobSchema.safeParse(job.data);
    if (!parsed.success) return { issues: parsed.error.issues };
    const { amountCentavos, destination, ...common } = parsed.data;
    return {
      ...common,
      store: (challenge: { challengeId: string; codeHash: string; requestedAt: Date; now: Date }) => storeOtpChallenge(redis, keys, { ...challenge, memberId: common.memberId, amountCentavos, ttlMs }),
      message: (code: string) => otpMessage(code, ttlMs, { amount: formatPesos(amountCentavos), destination }),
    };
  };

  return async function processOtpJob(job: Job, _token?: string, signal?: AbortSignal): Promise<OtpJobResult> {
    const kind = codeKind(job);
    if ('issues' in kind && kind.issues) throw new UnrecoverableError(`invalid OTP job: ${kind.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`);
    const { challengeId, memberId, phone, requestId } = kind;
    // Every line of this job carries the request that asked for it.
    const logger = withFields(dependencies.logger, { requestId });
    const sentTo = maskPhone(phone);
    const attempt = job.attemptsMade + 1;

    const jobId = job.id ?? challengeId;
    const delivery = await deliveries.begin(QUEUE_NAMES.otp, jobId);
    if (delivery.sent) {
      // An earlier run texted this code and died before the job was marked done.
      await recordOtpSent(redis, keys, { memberId, challengeId, sentTo, at: clock() });
      logger.info('OTP already sent by an earlier run of this job', { challengeId, memberId, sentTo, attempt });
      return { challengeId, outcome: 'sent' };
    }
    const code = otpCodeFromSeed(secret, delivery.seed, delivery.sendNumber);
    const stored = await kind.store({ challengeId, codeHash: hashOtpCode(secret, challengeId, code), requestedAt: new Date(job.timestamp), now: clock() });
    if (stored !== 'stored') {
      logger.info('OTP not sent', { challengeId, memberId, reason: stored });
      return { challengeId, outcome: stored };
    }

    try {
      await sender.send({ to: phone, body: kind.message(code), memberId }, { idempotencyKey: delivery.idempotencyKey, ...(signal ? { signal } : {}) });
    } catch (error) {
      if (error instanceof SmsGatewayError) await deliveries.markRefused(QUEUE_NAMES.otp, jobId);
      const reason = redactCode(describeError(error), code);
      const final = attempt >= (job.opts.attempts ?? 1);
      await recordOtpFailure(redis, keys, { memberId, challengeId, sentTo, at: clock(), error: reason, final });
      logger.warn('OTP delivery failed', { challengeId, memberId, sentTo, attempt, final, error: reason });
      // A fresh error, so neither its message nor a chained cause can carry the code into BullMQ.
      throw new Error(reason);
    }

    await deliveries.markSent(QUEUE_NAMES.otp, jobId);
    await recordOtpSent(redis, keys, { memberId, challengeId, sentTo, at: clock() });
    logger.info('OTP sent', { challengeId, memberId, sentTo, attempt });
    return { challengeId, outcome: 'sent' };
  };
}
