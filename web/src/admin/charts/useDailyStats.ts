import { ADMIN_DAILY_STATS_DAYS, type AdminDailyStatsAnswer } from '@honeylend/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { apiRequest } from '../../shared/api';
import { reasonOf } from '../../console/adminApi';
import { useAdminEvent } from '../live/adminFeed';

export type DailyStatsState = { status: 'loading' } | { status: 'failed'; reason: string } | { status: 'ready'; answer: AdminDailyStatsAnswer };

/** A burst of changes (an approval moves a loan and a wallet) refetches the charts once. */
const REFETCH_DEBOUNCE_MS = 500;

/** The charts' data, read again whenever the counters change (`stats.updated`). */
export function useDailyStats(days: number = ADMIN_DAILY_STATS_DAYS.default): { state: DailyStatsState; reload: () => void } {
  const [state, setState] = useState<DailyStatsState>({ status: 'loading' });
  const [generation, setGeneration] = useState(0);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    apiRequest<AdminDailyStatsAnswer>(`/api/admin/stats/daily?days=${days}`, { signal: controller.signal, cache: 'no-store' })
      .then((answer) => {
        if (!answer || !Array.isArray(answer.days) || !Array.isArray(answer.loanAmountByStatus)) throw new Error('The server answered charts in an unknown shape');
        setState({ status: 'ready', answer });
      })
      .catch((error: unknown) => {
        if (!controller.signal.aborted) setState({ status: 'failed', reason: reasonOf(error) });
      });
    return () => controller.abort();
  }, [days, generation]);

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  const reload = useCallback(() => setGeneration((value) => value + 1), []);
  useAdminEvent('stats.updated', () => {
    if (timer.current) return;
    timer.current = setTimeout(() => {
      timer.current = null;
      reload();
    }, REFETCH_DEBOUNCE_MS);
  });

  return { state, reload };
}
