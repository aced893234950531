import type { TableProps } from 'antd';
import { useState } from 'react';
import type { LiveList, LiveListQuery } from '../live/useLiveList';

export const PAGE_SIZE = 10;

export interface ListFilters {
  search: string;
  status: string;
  page: number;
  /** A new search or status filter starts again from the first page. */
  setSearch: (search: string) => void;
  setStatus: (status: string) => void;
  setPage: (page: number) => void;
  /** The server-side page the filters ask for. */
  query: LiveListQuery;
}

/** The search, status filter ('all' until chosen) and page of a server-side paginated admin list. */
export function useListFilters(initialStatus = 'all'): ListFilters {
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState(initialStatus);
  const [page, setPage] = useState(1);
  return {
    search,
    status,
    page,
    setSearch: (value) => {
      setSearch(value);
      setPage(1);
    },
    setStatus: (value) => {
      setStatus(value);
      setPage(1);
    },
    setPage,
    query: { search, status, page, pageSize: PAGE_SIZE },
  };
}

/** "1 member", "42 members": `plural` is the word for many; one drops its final s. */
export function countedText(total: number, plural: string): string {
  return `${total} ${total === 1 ? plural.replace(/s$/, '') : plural}`;
}

/** The Table's props for one live page of a list: its rows, the empty text, and pages counted as e.g. '42 members'. */
export function pagedTableProps<T extends { id: string }>(list: LiveList<T>, filters: ListFilters, texts: { empty: string; counted: string }): TableProps<T> {
  return {
    rowKey: 'id',
    dataSource: list.rows,
    loading: list.loading,
    size: 'middle',
    locale: { emptyText: texts.empty },
    pagination: { current: filters.page, pageSize: PAGE_SIZE, total: list.total, showSizeChanger: false, onChange: filters.setPage, showTotal: (total) => countedText(total, texts.counted) },
  };
}
