import type { Redis } from 'ioredis';
import { maskPhone, readModelKeys } from '@honeylend/contracts';
import type { Logger } from '../logger.js';
import type { MemberSmsSender, SmsSender } from './smsSender.js';

/**
 * The demo `lending seed` writes is made of invented people whose numbers may be strangers'
 * (MemberRegistered.demo, kept on the member's read model). Their texts never reach the gateway:
 * they go to the development outbox, where a demo can still read its codes, and the log says so.
 * Asked of the read model at each send, so every kind of text (codes, notifications, reminders)
 * passes the same check.
 */
export function sparingDemoMembers(sender: SmsSender, dependencies: { redis: Redis; keyPrefix: string; outbox: SmsSender; logger: Logger }): MemberSmsSender {
  const { redis, outbox, logger } = dependencies;
  const keys = readModelKeys(dependencies.keyPrefix);
  const isDemo = async (memberId: string): Promise<boolean> => {
    const doc = await redis.get(keys.member(memberId));
    return doc !== null && (JSON.parse(doc) as { demo?: unknown }).demo === true;
  };
  return {
    async send(message, options) {
      const { memberId, ...text } = message;
      if (!(await isDemo(memberId))) return sender.send(text, options);
      logger.info('text to a demo member kept in the outbox, not sent', { memberId, sentTo: maskPhone(message.to) });
      return outbox.send(text, options);
    },
  };
}
