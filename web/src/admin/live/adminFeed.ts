import { useEffect, useRef } from 'react';
import { RealtimeClient, type RealtimeEvent, type RealtimeMessage } from '../../shared/realtime';

export type AdminFeedEvent = RealtimeEvent | 'resync' | 'revoked';

let client: RealtimeClient | null = null;

/**
 * The console's one Socket.IO connection (the `admins` room). It is separate from the borrower
 * app's so signing in as staff never resumes a borrower's feed position.
 */
export function adminFeed(): RealtimeClient {
  client ??= new RealtimeClient();
  return client;
}

/** Opens the connection while the console is mounted; the token is read on each (re)connect. */
export function useAdminFeedConnection(): void {
  useEffect(() => {
    const feed = adminFeed();
    feed.connect();
    return () => feed.reset();
  }, []);
}

/** Calls `handler` for each pushed `event` (none when null) while the component is mounted, always the latest handler. */
export function useAdminEvent<T = unknown>(event: AdminFeedEvent | null, handler: (message: RealtimeMessage<T>) => void): void {
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => {
    if (!event) return;
    return adminFeed().subscribe(event, (message) => latest.current(message as RealtimeMessage<T>));
  }, [event]);
}
