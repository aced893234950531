import type { AdminStatsAnswer } from '@honeylend/contracts';
import { useEffect, useRef, useState } from 'react';
import { apiRequest } from '../../shared/api';
import { failureToast } from '../../console/adminApi';
import { useAdminEvent } from './adminFeed';

/**
 * The stat cards' counters: read once, then replaced by every `stats.updated` the admins room
 * gets. A push carries the feed version it reflects; an older one never rolls the cards back.
 */
export function useAdminStats(): AdminStatsAnswer | null {
  const [stats, setStats] = useState<AdminStatsAnswer | null>(null);
  const version = useRef(0);

  useEffect(() => {
    const controller = new AbortController();
    apiRequest<AdminStatsAnswer>('/api/admin/stats', { signal: controller.signal, cache: 'no-store' })
      .then((answer) => {
        // A push that overtook the request is newer than the answer.
        if (version.current === 0) setStats(answer);
      })
      .catch((error: unknown) => {
        if (!controller.signal.aborted) failureToast('Failed to fetch stats', error);
      });
    return () => controller.abort();
  }, []);

  useAdminEvent<AdminStatsAnswer>('stats.updated', ({ version: pushed, doc }) => {
    if (pushed <= version.current) return;
    version.current = pushed;
    setStats(doc);
  });

  return stats;
}
