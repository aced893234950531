import { useCallback, useEffect, useRef, useState } from 'react';
import { apiRequest } from '../../shared/api';
import type { RealtimeEvent } from '../../shared/realtime';
import { failureToast, listPath, type ListPage } from '../../console/adminApi';
import { useAdminEvent } from './adminFeed';
import { applyPushed, replaceRow, withoutRow, type Row } from './liveRows';

export interface LiveListQuery {
  search: string;
  status: string;
  page: number;
  pageSize: number;
  /** More query parameters of this list (e.g. the members' `closure` filter). */
  more?: Record<string, string>;
}

export interface LiveListOptions<T extends Row, P extends Row> {
  path: string;
  query: LiveListQuery;
  /** Spec §8's toast when the list cannot be read, e.g. 'Failed to fetch members'. */
  failureTitle: string;
  updated: RealtimeEvent;
  deleted?: RealtimeEvent;
  merge: (held: T, pushed: P) => T;
}

export interface LiveList<T> {
  rows: T[];
  total: number;
  loading: boolean;
  /** The last read failed (the table says so instead of pretending to be empty). */
  failed: boolean;
  refetch: () => void;
  /** Puts a write's answer in place of its row. */
  replace: (row: T) => void;
  remove: (id: string) => void;
  /** Rewrites the rows held (e.g. a pushed member's new balance in the loans they hold). */
  update: (change: (rows: T[]) => T[]) => void;
}

/** Pushes that name a row this page does not hold are gathered this long before one refetch. */
const REFETCH_DEBOUNCE_MS = 250;

/**
 * One page of a server-side paginated admin list, kept live: pushed documents update their rows
 * under the version rule, deletions remove them, and a document the page does not hold (a new
 * application, a new withdrawal request) makes the page refetch, so it appears without a reload.
 */
export function useLiveList<T extends Row, P extends Row>({ path, query, failureTitle, updated, deleted, merge }: LiveListOptions<T, P>): LiveList<T> {
  const [rows, setRowsState] = useState<T[]>([]);
  // The rows as last set, so a push can tell at once whether its row is on this page.
  const rowsRef = useRef<T[]>([]);
  const setRows = useCallback((next: T[]) => {
    rowsRef.current = next;
    setRowsState(next);
  }, []);
  const [total, setTotal] = useState(0);
  const [loading, setLoading] = useState(true);
  const [failed, setFailed] = useState(false);
  const [generation, setGeneration] = useState(0);
  const refetchTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  // Pushes that arrive while a read is on its way are applied on top of its answer.
  const pushedDuringFetch = useRef<P[] | null>(null);
  const mergeRef = useRef(merge);
  mergeRef.current = merge;

  const url = listPath(path, { search: query.search.trim(), status: query.status, page: query.page, pageSize: query.pageSize, ...query.more });

  useEffect(() => {
    const controller = new AbortController();
    setLoading(true);
    pushedDuringFetch.current = [];
    apiRequest<ListPage<T>>(url, { signal: controller.signal, cache: 'no-store' })
      .then((answer) => {
        let next = answer.items;
        for (const pushed of pushedDuringFetch.current ?? []) next = applyPushed(next, pushed, mergeRef.current).rows;
        setRows(next);
        setTotal(answer.total);
        setFailed(false);
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        setFailed(true);
        failureToast(failureTitle, error);
      })
      .finally(() => {
        if (controller.signal.aborted) return;
        pushedDuringFetch.current = null;
        setLoading(false);
      });
    return () => controller.abort();
  }, [url, generation, failureTitle, setRows]);

  const refetch = useCallback(() => setGeneration((value) => value + 1), []);

  const scheduleRefetch = useCallback(() => {
    if (refetchTimer.current) return;
    refetchTimer.current = setTimeout(() => {
      refetchTimer.current = null;
      refetch();
    }, REFETCH_DEBOUNCE_MS);
  }, [refetch]);

  useEffect(
    () => () => {
      if (refetchTimer.current) clearTimeout(refetchTimer.current);
    },
    [],
  );

  useAdminEvent<P>(updated, ({ doc }) => {
    if (!doc?.id) return;
    pushedDuringFetch.current?.push(doc);
    const outcome = applyPushed(rowsRef.current, doc, mergeRef.current);
    if (outcome.rows !== rowsRef.current) setRows(outcome.rows);
    if (outcome.unknown) scheduleRefetch();
  });

  useAdminEvent<{ id: string }>(deleted ?? null, ({ doc }) => {
    if (!doc?.id) return;
    setRows(withoutRow(rowsRef.current, doc.id));
    // The page may have a row to take the deleted one's place, and the total changed.
    scheduleRefetch();
  });

  useAdminEvent('resync', () => refetch());

  const replace = useCallback((row: T) => setRows(replaceRow(rowsRef.current, row)), [setRows]);
  const remove = useCallback(
    (id: string) => {
      setRows(withoutRow(rowsRef.current, id));
      scheduleRefetch();
    },
    [setRows, scheduleRefetch],
  );

  const update = useCallback((change: (rows: T[]) => T[]) => setRows(change(rowsRef.current)), [setRows]);

  return { rows, total, loading, failed, refetch, replace, remove, update };
}
