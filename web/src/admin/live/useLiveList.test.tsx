import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, routeFetch } from '../../testing/http';
import { useToasts } from '../../shared/toast/toastStore';
import { adminFeed } from './adminFeed';
import { applyPushed, replaceRow, withoutRow } from './liveRows';
import { useLiveList } from './useLiveList';

interface Row {
  id: string;
  version: number;
  status: string;
  member: string;
}
interface Pushed {
  id: string;
  version: number;
  status: string;
}

const merge = (held: Row, pushed: Pushed): Row => ({ ...held, ...pushed });
const row = (id: string, version: number, status = 'pending'): Row => ({ id, version, status, member: `member of ${id}` });

describe('applying pushed documents to table rows', () => {
  it('lays a newer push over the row and keeps the fields only the admin list has', () => {
    const outcome = applyPushed([row('a', 5), row('b', 6)], { id: 'b', version: 9, status: 'approved' }, merge);
    expect(outcome).toEqual({ rows: [row('a', 5), { id: 'b', version: 9, status: 'approved', member: 'member of b' }], unknown: false });
  });

  it('ignores an older or repeated push', () => {
    const rows = [row('a', 5, 'approved')];
    expect(applyPushed(rows, { id: 'a', version: 5, status: 'pending' }, merge).rows).toBe(rows);
    expect(applyPushed(rows, { id: 'a', version: 3, status: 'pending' }, merge).rows).toBe(rows);
  });

  it('reports a document the page does not hold', () => {
    expect(applyPushed([row('a', 5)], { id: 'z', version: 9, status: 'pending' }, merge).unknown).toBe(true);
  });

  it("removes a deleted row, and lets a write's answer replace its row unless a push is newer", () => {
    expect(withoutRow([row('a', 1), row('b', 2)], 'a')).toEqual([row('b', 2)]);
    expect(replaceRow([row('a', 7, 'approved')], row('a', 6, 'pending'))).toEqual([row('a', 7, 'approved')]);
    expect(replaceRow([row('a', 5)], row('a', 6, 'approved'))).toEqual([row('a', 6, 'approved')]);
  });
});

describe('useLiveList', () => {
  const query = { search: '', status: 'all', page: 1, pageSize: 10 };

  it('fetches the page, applies pushes under the version rule and refetches for a document it does not hold', async () => {
    let answer = [row('a', 5), row('b', 6)];
    const fetchMock = routeFetch({ 'GET /api/admin/loans?page=1&pageSize=10': () => jsonResponse({ items: answer, total: answer.length, page: 1, pageSize: 10 }) });
    const { result } = renderHook(() => useLiveList<Row, Pushed>({ path: '/api/admin/loans', query, failureTitle: 'Failed to fetch loans', updated: 'loan.updated', deleted: 'loan.deleted', merge }));
    await waitFor(() => expect(result.current.rows).toHaveLength(2));

    act(() => adminFeed().receive('loan.updated', { version: 9, streamId: '1-1', doc: { id: 'a', version: 9, status: 'approved' } }));
    expect(result.current.rows[0]).toEqual({ id: 'a', version: 9, status: 'approved', member: 'member of a' });
    act(() => adminFeed().receive('loan.updated', { version: 8, streamId: '1-2', doc: { id: 'a', version: 8, status: 'pending' } }));
    expect(result.current.rows[0]?.status).toBe('approved');
    expect(fetchMock).toHaveBeenCalledTimes(1);

    // A new application: not on the page, so the page is read again and shows it.
    answer = [row('c', 10), row('a', 9, 'approved'), row('b', 6)];
    act(() => adminFeed().receive('loan.updated', { version: 10, streamId: '1-3', doc: { id: 'c', version: 10, status: 'pending' } }));
    await waitFor(() => expect(result.current.rows.map((item) => item.id)).toEqual(['c', 'a', 'b']));
    expect(result.current.total).toBe(3);

    act(() => adminFeed().receive('loan.deleted', { version: 11, streamId: '1-4', doc: { id: 'b' } }));
    expect(result.current.rows.map((item) => item.id)).toEqual(['c', 'a']);
  });

  it("shows the spec's toast when the list cannot be read", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    routeFetch({ 'GET /api/admin/users?page=1&pageSize=10': () => jsonResponse({ message: 'Redis is unavailable', code: 'UNAVAILABLE' }, { status: 503 }) });
    const { result } = renderHook(() => useLiveList<Row, Pushed>({ path: '/api/admin/users', query, failureTitle: 'Failed to fetch members', updated: 'member.updated', merge }));
    await waitFor(() => expect(result.current.failed).toBe(true));
    expect(useToasts.getState().toasts[0]).toMatchObject({ title: 'Failed to fetch members', description: 'Redis is unavailable', variant: 'destructive' });
    expect(result.current.rows).toEqual([]);
  });
});
