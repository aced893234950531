import type { Job } from 'bullmq';
import { UnrecoverableError } from 'bullmq';
import { QUEUE_NAMES, maskPhone, notificationJobSchema } from '@honeylend/contracts';
import { describeError, withFields, type Logger } from '../logger.js';
import { SmsGatewayError } from '../sms/httpSmsSender.js';
import type { SmsDeliveries } from '../sms/smsDelivery.js';
import type { MemberSmsSender } from '../sms/smsSender.js';

export function notificationMessage(title: string, message: string): string {
  return `Honeylend: ${title} — ${message}`;
}

/**
 * Texts a loan-status notification; a failed send is retried by BullMQ with backoff. A re-run after
 * the worker died sends nothing when the gateway already accepted the text, and otherwise repeats
 * it under the same idempotency key (sms/smsDelivery.ts).
 */
export function createNotificationProcessor(dependencies: { sender: MemberSmsSender; deliveries: SmsDeliveries; logger: Logger }) {
  const { sender, deliveries } = dependencies;

  return async function processNotificationJob(job: Job, _token?: string, signal?: AbortSignal): Promise<{ notificationId: string }> {
    const parsed = notificationJobSchema.safeParse(job.data);
    if (!parsed.success) throw new UnrecoverableError(`invalid notification job: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`);
    const { notificationId, memberId, phone, title, message, requestId } = parsed.data;
    // Every line of this job carries the request that asked for it.
    const logger = withFields(dependencies.logger, { requestId });
    const sentTo = maskPhone(phone);
    const jobId = job.id ?? notificationId;
    const delivery = await deliveries.begin(QUEUE_NAMES.notifications, jobId);
    if (delivery.sent) {
      logger.info('notification SMS already sent by an earlier run of this job', { notificationId, memberId, sentTo });
      return { notificationId };
    }
    try {
      await sender.send({ to: phone, body: notificationMessage(title, message), memberId }, { idempotencyKey: delivery.idempotencyKey, ...(signal ? { signal } : {}) });
    } catch (error) {
      if (error instanceof SmsGatewayError) await deliveries.markRefused(QUEUE_NAMES.notifications, jobId);
      logger.warn('notification SMS failed', { notificationId, memberId, sentTo, attempt: job.attemptsMade + 1, error: describeError(error) });
      throw error;
    }
    await deliveries.markSent(QUEUE_NAMES.notifications, jobId);
    logger.info('notification SMS sent', { notificationId, memberId, sentTo });
    return { notificationId };
  };
}
