import type { NotificationAnswer } from '@honeylend/contracts';
import { createVersionedListStore } from './versionedListStore';

/** The member's notifications (GET /api/notifications), newest first, kept current by `notification.created`. */
export const useNotifications = createVersionedListStore<NotificationAnswer>('/api/notifications');
