import type { Redis } from 'ioredis';
import { execTransaction } from '../redisTransaction.js';
import { maskPhone, type JobKeys, type SmsOutboxEntry } from '@honeylend/contracts';
import type { Logger } from '../logger.js';
import type { SmsMessage, SmsSender } from './smsSender.js';

export const SMS_OUTBOX_CAPACITY = 500;

/**
 * Development sender: "sends" by keeping the text on a capped Redis list, newest first, where a
 * developer or an end-to-end test reads it. The log names only the masked number, never the text,
 * because the text of an OTP message is the code.
 */
export class OutboxSmsSender implements SmsSender {
  constructor(
    private readonly redis: Redis,
    private readonly keys: JobKeys,
    private readonly logger: Logger,
    private readonly clock: () => Date = () => new Date(),
    private readonly capacity = SMS_OUTBOX_CAPACITY,
  ) {}

  async send({ to, body }: SmsMessage): Promise<void> {
    const entry: SmsOutboxEntry = { to, body, createdAt: this.clock().toISOString() };
    await execTransaction(
      this.redis
        .multi()
        .lpush(this.keys.smsOutbox, JSON.stringify(entry))
        .ltrim(this.keys.smsOutbox, 0, this.capacity - 1),
    );
    this.logger.info(`SMS to ${maskPhone(to)} queued`, { sender: 'outbox' });
  }
}
