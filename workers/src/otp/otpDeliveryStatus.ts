import type { Redis } from 'ioredis';
import { execTransaction } from '../redisTransaction.js';
import type { JobKeys } from '@honeylend/contracts';

/**
 * Writes the member's OTP delivery status hash (read back by `readOtpDeliveryStatus`), which the
 * admin console shows in place of the code: when the last code went out, and whether sends fail.
 */
export async function recordOtpSent(redis: Redis, keys: JobKeys, delivery: { memberId: string; challengeId: string; sentTo: string; at: Date }): Promise<void> {
  const at = delivery.at.toISOString();
  await redis.hset(keys.otpDeliveryStatus(delivery.memberId), {
    challengeId: delivery.challengeId,
    state: 'sent',
    sentTo: delivery.sentTo,
    lastAttemptAt: at,
    lastSentAt: at,
    failures: 0,
  });
}

/** `final` marks the last attempt: the member will not get this code, and admins should know. */
export async function recordOtpFailure(redis: Redis, keys: JobKeys, delivery: { memberId: string; challengeId: string; sentTo: string; at: Date; error: string; final: boolean }): Promise<void> {
  const key = keys.otpDeliveryStatus(delivery.memberId);
  const at = delivery.at.toISOString();
  await execTransaction(
    redis
      .multi()
      .hset(key, {
        challengeId: delivery.challengeId,
        state: delivery.final ? 'failed' : 'retrying',
        sentTo: delivery.sentTo,
        lastAttemptAt: at,
        lastError: delivery.error,
        lastErrorAt: at,
      })
      .hincrby(key, 'failures', 1),
  );
}
