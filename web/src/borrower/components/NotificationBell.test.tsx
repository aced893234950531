import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { io } from 'socket.io-client';
import { RealtimeClient, type RealtimeEvent } from '../../shared/realtime';
import { jsonResponse, memberAnswer, notificationAnswer, routeFetch } from '../../testing/http';
import { renderApp } from '../../testing/renderApp';
import { startLiveUpdates } from '../stores/liveUpdates';
import { useLoans } from '../stores/loans';
import { useNotifications } from '../stores/notifications';
import { useSession } from '../stores/session';

/** A socket that never connects: the test pushes what the server would. */
function offlineClient() {
  const fakeSocket = { on: () => fakeSocket, removeAllListeners: () => fakeSocket, disconnect: () => undefined, connected: false };
  const client = new RealtimeClient({ connect: (() => fakeSocket) as unknown as typeof io, token: () => 'jwt-abc' });
  const push = (event: RealtimeEvent, doc: { version: number }) => act(() => client.receive(event, { version: doc.version, streamId: `${1000 + doc.version}-0`, doc }));
  return { client, push };
}

const ids = ['a1000000-0000-4000-8000-000000000001', 'a1000000-0000-4000-8000-000000000002', 'a1000000-0000-4000-8000-000000000003'];
const notice = (n: number, overrides: Parameters<typeof notificationAnswer>[0] = {}) =>
  notificationAnswer({ id: ids[n], title: `Notice ${n + 1}`, message: `Message ${n + 1}`, createdAt: `2026-01-1${n + 1}T02:00:00.000Z`, version: 50 + n, ...overrides });

const bell = () => screen.getByRole('button', { name: /^Notifications,/ });

describe('the notification inbox (issue 17, item 5)', () => {
  it('shows the unread count on the bell, raises it live, lowers it on reading here or on another device, and clears it with Mark all as read', async () => {
    localStorage.setItem('token', 'jwt-abc');
    const fetchMock = routeFetch({
      'GET /api/user/profile': () => jsonResponse(memberAnswer({ version: 20 })),
      'GET /api/loans/user': () => jsonResponse([]),
      'GET /api/withdrawals': () => jsonResponse([]),
      'GET /api/notifications': () => jsonResponse([notice(1), notice(0)]),
      [`POST /api/notifications/${ids[0]}/read`]: () => jsonResponse(notice(0, { read: true, version: 70 })),
      'POST /api/notifications/read-all': () => jsonResponse({ read: 1, unread: 0 }),
    });
    const { client, push } = offlineClient();
    const stop = startLiveUpdates(client);
    try {
      act(() => useSession.setState({ user: memberAnswer({ version: 20 }), loading: false }));
      useLoans.setState({ status: 'ready' });
      renderApp('/loan-app');
      // The bell is a lazy chunk of its own.
      await screen.findByRole('button', { name: /^Notifications,/ }, { timeout: 10_000 });
      await waitFor(() => expect(bell().getAttribute('aria-label')).toBe('Notifications, 2 unread'));
      expect(screen.getByTestId('unread-count').textContent).toBe('2');

      // A new notification raises the count without a reload.
      push('notification.created', notice(2));
      expect(bell().getAttribute('aria-label')).toBe('Notifications, 3 unread');

      fireEvent.click(bell());
      const inbox = screen.getByRole('dialog', { name: 'Notifications' });
      const items = within(inbox).getAllByTestId('notification');
      expect(items.map((item) => item.textContent?.slice(0, 20))).toEqual(['NewNotice 3Jan 13, 2', 'NewNotice 2Jan 12, 2', 'NewNotice 1Jan 11, 2']);

      // Reading one here: the answer (read, newer version) replaces it.
      fireEvent.click(within(inbox).getByRole('button', { name: 'Mark "Notice 1" as read' }));
      await waitFor(() => expect(bell().getAttribute('aria-label')).toBe('Notifications, 2 unread'));
      expect(fetchMock.mock.calls.some(([url, init]) => url === `/api/notifications/${ids[0]}/read` && init?.method === 'POST')).toBe(true);
      expect(within(inbox).queryByRole('button', { name: 'Mark "Notice 1" as read' })).toBeNull();

      // Read on the member's other device: the push lowers the count here too.
      push('notification.updated', notice(1, { read: true, version: 71 }));
      expect(bell().getAttribute('aria-label')).toBe('Notifications, 1 unread');

      // Mark all as read, then the list as the server now holds it.
      routeFetch({
        'GET /api/notifications': () => jsonResponse([notice(2, { read: true, version: 72 }), notice(1, { read: true, version: 71 }), notice(0, { read: true, version: 70 })]),
        'POST /api/notifications/read-all': () => jsonResponse({ read: 1, unread: 0 }),
      });
      fireEvent.click(within(inbox).getByRole('button', { name: 'Mark all as read' }));
      await waitFor(() => expect(bell().getAttribute('aria-label')).toBe('Notifications, none unread'));
      expect(screen.queryByTestId('unread-count')).toBeNull();
      expect(within(inbox).getByRole<HTMLButtonElement>('button', { name: 'Mark all as read' }).disabled).toBe(true);
      expect(
        within(inbox)
          .getAllByTestId('notification')
          .every((item) => item.dataset.read === 'true'),
      ).toBe(true);
    } finally {
      stop();
    }
  });

  it('is not shown to a visitor who is not signed in', async () => {
    useSession.setState({ user: null, loading: false });
    // Its chunk loaded already, so its absence is the shell's decision, not a load still on its way.
    await import('./NotificationBell');
    renderApp('/');
    await act(async () => new Promise((resolve) => setTimeout(resolve, 100)));
    expect(screen.queryByRole('button', { name: /^Notifications,/ })).toBeNull();
    expect(useNotifications.getState().items).toEqual([]);
  });
});
