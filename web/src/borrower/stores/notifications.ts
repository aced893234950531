import type { NotificationAnswer } from '@honeylend/contracts';
import { apiRequest } from '../../shared/api';
import { createVersionedListStore } from './versionedListStore';

/**
 * The member's notifications (GET /api/notifications), newest first, kept current by
 * `notification.created` and `notification.updated` (read on this or another device).
 */
export const useNotifications = createVersionedListStore<NotificationAnswer>('/api/notifications');

/** How many of the held notifications are unread: the bell's count. */
export const unreadCount = (items: readonly NotificationAnswer[]) => items.filter((notification) => !notification.read).length;

/** POST /api/notifications/:id/read; the answer (read, with its new version) replaces the one held. Rejects with the ApiError. */
export async function markNotificationRead(id: string): Promise<void> {
  const read = await apiRequest<NotificationAnswer>(`/api/notifications/${id}/read`, { method: 'POST' });
  if (read && typeof read.version === 'number') useNotifications.getState().apply(read);
}

/** POST /api/notifications/read-all, then the list again (the pushes say the same, a little later). Rejects with the ApiError. */
export async function markAllNotificationsRead(): Promise<void> {
  await apiRequest<{ read: number; unread: number }>('/api/notifications/read-all', { method: 'POST' });
  await useNotifications.getState().fetch();
}
