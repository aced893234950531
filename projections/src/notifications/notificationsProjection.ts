import { rooms, type NotificationDoc } from '@honeylend/contracts';
import type { Projection } from '../projection.js';

/** rm:notifications:member:<id>: the member's notifications, newest first. */
export const notificationsProjection: Projection = {
  name: 'notifications',
  async apply(event, tx, keys) {
    if (event.type !== 'MemberNotified') return;
    const { notificationId, memberId, title, message, type, notifiedAt } = event.data;
    const doc: NotificationDoc = { id: notificationId, memberId, title, message, type, createdAt: notifiedAt, read: false, version: event.position };
    tx.lpush(keys.notificationsByMember(memberId), JSON.stringify(doc));
    tx.publish({ rooms: [rooms.member(memberId)], event: 'notification.created', doc, version: event.position });
  },
};
