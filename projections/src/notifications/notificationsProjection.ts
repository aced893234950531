import { rooms, type NotificationDoc } from '@honeylend/contracts';
import type { Projection } from '../projection.js';

/**
 * rm:notifications:member:<id>: the member's notifications, newest first — the messages staff
 * send (MemberNotified) and the repayment reminders (RepaymentReminderSent on the loan's stream).
 * Each is also kept whole at rm:notification:<id>, and what the member read (NotificationsRead)
 * in rm:notifications:read:<member id> (id → the position that read it), which the list's
 * readers lay over the list; a read notification is pushed again as `notification.updated`.
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
    } else if (event.type === 'NotificationsRead') {
      const { memberId, notificationIds } = event.data;
      await tx.prefetch(notificationIds.map((id) => keys.notification(id)));
      for (const id of notificationIds) {
        tx.hset(keys.notificationsRead(memberId), { [id]: event.position });
        const current = await tx.getJson<NotificationDoc>(keys.notification(id));
        if (!current || current.memberId !== memberId || current.read) continue;
        const read: NotificationDoc = { ...current, read: true, version: event.position };
        tx.setJson(keys.notification(id), read);
        tx.publish({ rooms: [rooms.member(memberId)], event: 'notification.updated', doc: read, version: event.position });
      }
      return;
    } else {
      return;
    }
    tx.lpush(keys.notificationsByMember(doc.memberId), JSON.stringify(doc));
    tx.setJson(keys.notification(doc.id), doc);
    tx.publish({ rooms: [rooms.member(doc.memberId)], event: 'notification.created', doc, version: event.position });
  },
};
