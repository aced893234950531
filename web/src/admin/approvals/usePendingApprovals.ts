import { useCallback, useEffect, useState } from 'react';
import { apiRequest } from '../../shared/api';
import type { ListPage } from '../../console/adminApi';
import { useAdminEvent } from '../live/adminFeed';
import { useRefetchOn } from '../live/useRefetchOn';

/** The number of requests waiting for a second admin (the sidebar badge), read again whenever one is made or decided. */
export function usePendingApprovals(): number | undefined {
  const [pending, setPending] = useState<number>();
  const [generation, setGeneration] = useState(0);
  const refetch = useCallback(() => setGeneration((value) => value + 1), []);
  useEffect(() => {
    const controller = new AbortController();
    apiRequest<ListPage<unknown>>('/api/admin/approvals?status=pending&pageSize=1', { signal: controller.signal, cache: 'no-store' })
      .then((answer) => setPending(answer.total))
      .catch(() => undefined);
    return () => controller.abort();
  }, [generation]);
  useRefetchOn(['approval.updated'], refetch);
  useAdminEvent('resync', refetch);
  return pending;
}
