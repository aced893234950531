import type { AdminWithdrawalAnswer, WithdrawalAnswer } from '@honeylend/contracts';
import { Button, Card, Space, Statistic, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { formatDateTime, formatPesoAmount, statusLabel } from '../../shared/money';
import { failureToast, successToast } from '../../console/adminApi';
import { PageHeader } from '../../console/layout/PageHeader';
import { ListToolbar } from '../lists/ListToolbar';
import { MemberCell } from '../lists/MemberCell';
import { pagedTableProps, useListFilters } from '../lists/pagedList';
import { useAdminStats } from '../live/useAdminStats';
import { useLiveList } from '../live/useLiveList';
import { downloadWithdrawalsCsv } from './downloadExport';
import { WithdrawalDetailDialog } from './WithdrawalDetailDialog';
import { WITHDRAWAL_STATUS_COLOURS } from './withdrawalStatus';

/** The statuses the list filters by (the API's choices besides 'all'). */
const FILTERED_STATUSES = ['pending', 'completed', 'rejected'] as const;

/** Pushed withdrawals carry a masked account number and no member: the row keeps both. */
const mergeWithdrawal = (held: AdminWithdrawalAnswer, pushed: WithdrawalAnswer): AdminWithdrawalAnswer => ({
  ...held,
  ...pushed,
  bankAccountNumber: held.bankAccountNumber,
});

/** Spec §2 Withdrawals: live stat cards (rejected requests and their amount apart from the total), search, status filter, the table, the detail dialog, 'Export report'. */
export function WithdrawalsPage() {
  const filters = useListFilters();
  const stats = useAdminStats();
  const list = useLiveList<AdminWithdrawalAnswer, WithdrawalAnswer>({
    path: '/api/admin/withdrawals',
    query: filters.query,
    failureTitle: 'Failed to fetch withdrawals',
    updated: 'withdrawal.updated',
    merge: mergeWithdrawal,
  });
  const [openId, setOpenId] = useState<string | null>(null);
  const [exporting, setExporting] = useState(false);
  // The dialog follows the row, so a decision made elsewhere shows in it at once.
  const open = list.rows.find((row) => row.id === openId) ?? null;

  async function exportReport() {
    setExporting(true);
    try {
      const fileName = await downloadWithdrawalsCsv({ search: filters.search, status: filters.status });
      successToast('Report exported', fileName);
    } catch (error) {
      failureToast('Export failed', error);
    } finally {
      setExporting(false);
    }
  }

  const columns: TableColumnsType<AdminWithdrawalAnswer> = [
    {
      title: 'Withdrawal ID',
      key: 'number',
      render: (_, withdrawal) => (
        <Typography.Text code style={{ whiteSpace: 'nowrap' }}>
          {withdrawal.withdrawalNumber}
        </Typography.Text>
      ),
    },
    {
      title: 'Member',
      key: 'member',
      render: (_, withdrawal) => <MemberCell member={withdrawal.member} />,
    },
    { title: 'Amount', key: 'amount', align: 'right', className: 'admin-nowrap', render: (_, withdrawal) => formatPesoAmount(withdrawal.amount) },
    {
      title: 'Bank',
      key: 'bank',
      render: (_, withdrawal) => (
        <Space direction="vertical" size={0}>
          <Typography.Text>{withdrawal.bankName}</Typography.Text>
          <Typography.Text type="secondary" className="admin-nowrap">
            {withdrawal.bankAccountNumber}
          </Typography.Text>
        </Space>
      ),
    },
    { title: 'Status', key: 'status', render: (_, withdrawal) => <Tag color={WITHDRAWAL_STATUS_COLOURS[withdrawal.status]}>{statusLabel(withdrawal.status)}</Tag> },
    { title: 'Requested', key: 'createdAt', render: (_, withdrawal) => formatDateTime(withdrawal.createdAt) },
    { title: 'Processed', key: 'processedAt', render: (_, withdrawal) => (withdrawal.processedAt ? formatDateTime(withdrawal.processedAt) : '—') },
    {
      title: 'Actions',
      key: 'actions',
      render: (_, withdrawal) => (
        <Button size="small" onClick={() => setOpenId(withdrawal.id)}>
          {withdrawal.status === 'pending' ? 'Review' : 'Details'}
        </Button>
      ),
    },
  ];

  return (
    <>
      <PageHeader title="Withdrawal List">
        <Button type="primary" loading={exporting} onClick={() => void exportReport()}>
          Export report
        </Button>
      </PageHeader>
      <section className="admin-stat-cards admin-stat-cards--six" aria-label="Withdrawal statistics">
        <StatCard title="Total Requests" value={stats?.withdrawals.total} />
        <StatCard title="Processed" value={stats?.withdrawals.processed} />
        <StatCard title="Pending" value={stats?.withdrawals.pending} />
        <StatCard title="Rejected" value={stats?.withdrawals.rejected} />
        <StatCard title="Total Amount" value={stats ? formatPesoAmount(stats.withdrawals.totalAmount) : undefined} />
        <StatCard title="Rejected Amount" value={stats ? formatPesoAmount(stats.withdrawals.rejectedAmount) : undefined} />
      </section>
      <ListToolbar
        label="Search withdrawals"
        placeholder="Search by member, withdrawal ID or bank"
        width={380}
        onSearch={filters.setSearch}
        status={{ value: filters.status, onChange: filters.setStatus, statuses: FILTERED_STATUSES }}
      />
      <Table<AdminWithdrawalAnswer> columns={columns} {...pagedTableProps(list, filters, { empty: 'No withdrawal requests found', counted: 'requests' })} />
      <WithdrawalDetailDialog withdrawal={open} onClose={() => setOpenId(null)} onDecided={list.replace} />
    </>
  );
}

function StatCard({ title, value }: { title: string; value: number | string | undefined }) {
  return (
    <div role="group" aria-label={title}>
      <Card size="small">
        <Statistic title={title} value={value ?? '—'} loading={value === undefined} />
      </Card>
    </div>
  );
}
