import { rooms, type NotificationDoc } from '@honeylend/contracts';
import type { Projection } from '../projection.js';

/**
 * rm:notifications:member:<id>: the member's notifications, newest first — the messages staff
 * send (MemberNotified) and the repayment reminders (RepaymentReminderSent on the loan's stream).
 */
export const notificationsProjection: Projection = {
  name: 'notifications',
  async apply(event, tx, keys) {
    if (event.type === 'MemberAccountClosed') {
      // Messages written to the member, read only by them: gone from the read models once they closed their account (the log keeps them).
      tx.delete(keys.notificationsByMember(event.data.memberId));
      return;
    }
    let doc: NotificationDoc;
    if (event.type === 'MemberNotified') {
      const { notificationId, memberId, title, message, type, notifiedAt } = event.data;
      doc = { id: notificationId, memberId, title, message, type, createdAt: notifiedAt, read: false, version: event.position };
    } else if (event.type === 'RepaymentReminderSent') {
      const { notificationId, memberId, title, message, sentAt } = event.data;
      doc = { id: notificationId, memberId, title, message, type: 'loan_update', createdAt: sentAt, read: false, version: event.position };
    } else {
      return;
    }
    tx.lpush(keys.notificationsByMember(doc.memberId), JSON.stringify(doc));
    tx.publish({ rooms: [rooms.member(doc.memberId)], event: 'notification.created', doc, version: event.position });
  },
};
