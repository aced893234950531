import type { CollectionsRowAnswer } from '@honeylend/contracts';
import { Segmented, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { apiRequest } from '../../shared/api';
import { formatDateTime, formatPesoAmount } from '../../shared/money';
import { listPath } from '../../console/adminApi';
import { PageHeader } from '../../console/layout/PageHeader';
import { useRefetchOn } from '../live/useRefetchOn';
import { LoanServicingDrawer } from './LoanServicingDrawer';
import { BUCKET_COLOURS } from './bucketColours';

interface CollectionsAnswer {
  items: CollectionsRowAnswer[];
  total: number;
  page: number;
  pageSize: number;
}

const BUCKETS = ['all', '1-30', '31-60', '61-90', '90+'] as const;

/** Overdue loans, most overdue first, by bucket, with the borrower's phone and the last reminder; live. */
export function CollectionsPage() {
  const [bucket, setBucket] = useState<(typeof BUCKETS)[number]>('all');
  const [page, setPage] = useState(1);
  const [answer, setAnswer] = useState<CollectionsAnswer | null>(null);
  const [failed, setFailed] = useState(false);
  const [open, setOpen] = useState<string | null>(null);

  const load = useCallback(() => {
    apiRequest<CollectionsAnswer>(listPath('/api/admin/collections', { bucket: bucket === 'all' ? undefined : bucket, page }))
      .then((next) => {
        setAnswer(next);
        setFailed(false);
      })
      .catch(() => setFailed(true));
  }, [bucket, page]);
  useEffect(load, [load]);
  useRefetchOn(['loan.updated', 'resync'], load);

  const columns: TableColumnsType<CollectionsRowAnswer> = [
    {
      title: 'Loan',
      key: 'loan',
      render: (_, row) => (
        <Typography.Link code onClick={() => setOpen(row.id)}>
          {row.loanNumber}
        </Typography.Link>
      ),
    },
    { title: 'Borrower', key: 'borrower', render: (_, row) => row.borrower?.fullName ?? '—' },
    { title: 'Phone', key: 'phone', className: 'admin-nowrap', render: (_, row) => row.borrower?.phone ?? '—' },
    { title: 'Days past due', key: 'dpd', align: 'right', render: (_, row) => row.daysPastDue },
    { title: 'Bucket', key: 'bucket', render: (_, row) => <Tag color={BUCKET_COLOURS[row.delinquencyBucket]}>{row.delinquencyBucket} days</Tag> },
    { title: 'Overdue', key: 'overdue', align: 'right', className: 'admin-nowrap', render: (_, row) => formatPesoAmount(row.overdueAmount) },
    { title: 'Outstanding', key: 'outstanding', align: 'right', className: 'admin-nowrap', render: (_, row) => formatPesoAmount(row.outstanding) },
    { title: 'Last contact', key: 'contact', render: (_, row) => (row.lastContact ? `SMS reminder, ${formatDateTime(row.lastContact.at)}` : 'None yet') },
  ];

  return (
    <>
      <PageHeader title="Collections" />
      <Segmented
        options={BUCKETS.map((value) => ({ value, label: value === 'all' ? 'All overdue' : `${value} days` }))}
        value={bucket}
        onChange={(value) => {
          setBucket(value);
          setPage(1);
        }}
        style={{ marginBottom: 16 }}
      />
      <Table<CollectionsRowAnswer>
        rowKey="id"
        columns={columns}
        dataSource={answer?.items ?? []}
        loading={!answer && !failed}
        locale={{ emptyText: failed ? 'Failed to fetch loans' : 'No overdue loans' }}
        pagination={{ current: page, pageSize: answer?.pageSize ?? 20, total: answer?.total ?? 0, onChange: setPage, showSizeChanger: false }}
      />
      <LoanServicingDrawer loanId={open} onClose={() => setOpen(null)} />
    </>
  );
}
