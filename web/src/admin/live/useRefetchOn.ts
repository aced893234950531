import { useEffect, useRef } from 'react';
import { adminFeed, type AdminFeedEvent } from './adminFeed';

/** A burst of pushes (one change touching several admins, a replay after reconnecting) makes one read. */
const REFETCH_DEBOUNCE_MS = 250;

/**
 * Calls `refetch` once after any of `events` is pushed to the admins room, for a small list that is
 * read whole rather than patched row by row. The push comes from the change feed written in the
 * same transaction as the read model, so the read that follows already sees the change.
 */
export function useRefetchOn(events: readonly AdminFeedEvent[], refetch: () => void): void {
  const latest = useRef(refetch);
  latest.current = refetch;
  const eventList = events.join(' ');

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    const schedule = () => {
      timer ??= setTimeout(() => {
        timer = null;
        latest.current();
      }, REFETCH_DEBOUNCE_MS);
    };
    const unsubscribes = eventList.split(' ').map((event) => adminFeed().subscribe(event as AdminFeedEvent, schedule));
    return () => {
      for (const unsubscribe of unsubscribes) unsubscribe();
      if (timer) clearTimeout(timer);
    };
  }, [eventList]);
}
