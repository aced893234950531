import type { NotificationAnswer } from '@honeylend/contracts';
import { useState } from 'react';
import { ApiError } from '../../shared/api';
import { formatDateTime } from '../../shared/money';
import { toast } from '../../shared/toast/toastStore';
import { markAllNotificationsRead, markNotificationRead, unreadCount, useNotifications } from '../stores/notifications';
import { Dialog } from './Dialog';
import { BellIcon } from './icons';
import './inbox.css';

function failed(error: unknown): void {
  if (error instanceof ApiError && error.accountSuspended) return;
  toast({ variant: 'destructive', title: 'Not marked as read', description: (error instanceof Error && error.message) || 'Please try again' });
}

/**
 * The notification inbox (issue 17, item 5): a bell in the header with the unread count, kept live
 * (a new notification raises it; reading here or on another device lowers it), opening the list
 * where each can be marked as read, or all at once.
 */
export function NotificationBell() {
  const items = useNotifications((state) => state.items);
  const [open, setOpen] = useState(false);
  const unread = unreadCount(items);
  const label = unread === 0 ? 'Notifications, none unread' : `Notifications, ${unread} unread`;

  return (
    <>
      <button type="button" className="icon-button bell" aria-label={label} aria-haspopup="dialog" onClick={() => setOpen(true)}>
        <BellIcon />
        {unread > 0 && (
          <span className="bell__count" data-testid="unread-count" aria-hidden="true">
            {unread > 99 ? '99+' : unread}
          </span>
        )}
      </button>
      <NotificationInbox open={open} onClose={() => setOpen(false)} />
    </>
  );
}

function NotificationInbox({ open, onClose }: { open: boolean; onClose: () => void }) {
  const items = useNotifications((state) => state.items);
  const status = useNotifications((state) => state.status);
  const [busy, setBusy] = useState<string | null>(null);
  const unread = unreadCount(items);

  async function run(key: string, action: () => Promise<void>) {
    setBusy(key);
    try {
      await action();
    } catch (error) {
      failed(error);
    } finally {
      setBusy(null);
    }
  }

  return (
    <Dialog
      open={open}
      title="Notifications"
      description={unread === 0 ? 'You have read them all.' : `${unread} unread`}
      onClose={onClose}
      closeButton
      wide
      actions={
        <button type="button" className="button button--secondary" disabled={unread === 0 || busy !== null} onClick={() => void run('all', markAllNotificationsRead)}>
          Mark all as read
        </button>
      }
    >
      {status === 'loading' ? (
        <p className="muted" role="status">
          Loading...
        </p>
      ) : items.length === 0 ? (
        <p className="muted">No notifications yet.</p>
      ) : (
        <ul className="inbox" aria-label="Your notifications">
          {items.map((notification) => (
            <InboxItem key={notification.id} notification={notification} busy={busy !== null} onRead={() => void run(notification.id, () => markNotificationRead(notification.id))} />
          ))}
        </ul>
      )}
    </Dialog>
  );
}

function InboxItem({ notification, busy, onRead }: { notification: NotificationAnswer; busy: boolean; onRead: () => void }) {
  return (
    <li className={`inbox__item${notification.read ? '' : ' inbox__item--unread'}`} data-testid="notification" data-read={notification.read}>
      <div className="inbox__head">
        <span className="inbox__title">
          {!notification.read && <span className="inbox__new">New</span>}
          {notification.title}
        </span>
        <time className="inbox__time" dateTime={notification.createdAt}>
          {formatDateTime(notification.createdAt)}
        </time>
      </div>
      <p className="inbox__message">{notification.message}</p>
      {!notification.read && (
        <button type="button" className="button button--secondary inbox__read" disabled={busy} onClick={onRead} aria-label={`Mark "${notification.title}" as read`}>
          Mark as read
        </button>
      )}
    </li>
  );
}
