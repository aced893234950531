import type { Job } from 'bullmq';
import { UnrecoverableError } from 'bullmq';
import { maskPhone, notificationJobSchema } from '@honeylend/contracts';
import { describeError, type Logger } from '../logger.js';
import type { SmsSender } from '../sms/smsSender.js';

export function notificationMessage(title: string, message: string): string {
  return `Honeylend: ${title} — ${message}`;
}

/** Texts a loan-status notification; a failed send is retried by BullMQ with backoff. */
export function createNotificationProcessor(dependencies: { sender: SmsSender; logger: Logger }) {
  const { sender, logger } = dependencies;

  return async function processNotificationJob(job: Job, _token?: string, signal?: AbortSignal): Promise<{ notificationId: string }> {
    const parsed = notificationJobSchema.safeParse(job.data);
    if (!parsed.success) throw new UnrecoverableError(`invalid notification job: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`);
    const { notificationId, memberId, phone, title, message } = parsed.data;
    const sentTo = maskPhone(phone);
    try {
      await sender.send({ to: phone, body: notificationMessage(title, message) }, signal ? { signal } : {});
    } catch (error) {
      logger.warn('notification SMS failed', { notificationId, memberId, sentTo, attempt: job.attemptsMade + 1, error: describeError(error) });
      throw error;
    }
    logger.info('notification SMS sent', { notificationId, memberId, sentTo });
    return { notificationId };
  };
}
