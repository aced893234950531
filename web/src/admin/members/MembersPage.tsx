import type { AdminMemberAnswer, UserAnswer } from '@honeylend/contracts';
import { Button, Select, Space, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { formatDate, formatPesoAmount, statusLabel } from '../../shared/money';
import { attempt, successToast } from '../../console/adminApi';
import { AuditDrawer, type AuditSubject } from '../audit/AuditDrawer';
import { ConfirmAction } from '../layout/ConfirmAction';
import { PageHeader } from '../../console/layout/PageHeader';
import { ListToolbar } from '../lists/ListToolbar';
import { pagedTableProps, useListFilters } from '../lists/pagedList';
import { useLiveList } from '../live/useLiveList';
import { BalanceAdjustmentDialog } from './BalanceAdjustmentDialog';
import { MessageMemberDialog } from './MessageMemberDialog';
import { MemberFormDialog } from './MemberFormDialog';
import { MEMBER_STATUS_COLOURS, MEMBER_STATUSES, toggledStatus } from './memberStatus';
import { OtpStatusTag } from './OtpStatusTag';
import { PasswordResetDialog } from './PasswordResetDialog';

// The charts library is large: the table does not wait for it.
const DashboardCharts = lazy(() => import('../charts/DashboardCharts'));
const PortfolioCards = lazy(() => import('../servicing/PortfolioCards'));

/** Pushed member documents are the borrower's shape: the admin-only fields (OTP delivery) stay as held. */
const mergeMember = (held: AdminMemberAnswer, pushed: UserAnswer): AdminMemberAnswer => ({ ...held, ...pushed });

/** Spec §2 Members: search, status filter, server-side pages, and every action on a member. */
export function MembersPage() {
  const filters = useListFilters();
  // Members who asked to close their account (RA 10173 sec. 16(e)).
  const [closure, setClosure] = useState('all');
  const list = useLiveList<AdminMemberAnswer, UserAnswer>({
    path: '/api/admin/users',
    query: closure === 'all' ? filters.query : { ...filters.query, more: { closure } },
    failureTitle: 'Failed to fetch members',
    updated: 'member.updated',
    deleted: 'member.deleted',
    merge: mergeMember,
  });
  const [editing, setEditing] = useState<{ member: AdminMemberAnswer | null } | null>(null);
  const [resetting, setResetting] = useState<AdminMemberAnswer | null>(null);
  const [adjusting, setAdjusting] = useState<AdminMemberAnswer | null>(null);
  const [messaging, setMessaging] = useState<AdminMemberAnswer | null>(null);
  const [auditing, setAuditing] = useState<AuditSubject | null>(null);

  async function toggleStatus(member: AdminMemberAnswer) {
    const { next, verb } = toggledStatus(member.status);
    const answer = await attempt<AdminMemberAnswer>(`${verb} failed`, `/api/admin/users/${member.id}`, { method: 'PUT', body: { status: next } });
    if (!answer) return;
    list.replace(answer);
    successToast(verb === 'Activate' ? 'Member activated' : 'Member deactivated', `${answer.fullName} is now ${answer.status}.`);
  }

  async function remove(member: AdminMemberAnswer) {
    const answer = await attempt<{ success: true }>('Delete failed', `/api/admin/users/${member.id}`, { method: 'DELETE' });
    if (!answer) return;
    list.remove(member.id);
    successToast('Member deleted', `${member.fullName}'s account is closed.`);
  }

  const columns: TableColumnsType<AdminMemberAnswer> = [
    {
      title: 'Member',
      key: 'member',
      width: 180,
      render: (_, member) => (
        <Space direction="vertical" size={0}>
          <Typography.Text strong>{member.fullName}</Typography.Text>
          <Typography.Text type="secondary">{member.email ?? 'No email'}</Typography.Text>
        </Space>
      ),
    },
    { title: 'Mobile', dataIndex: 'phone', key: 'phone', className: 'admin-nowrap' },
    {
      title: 'Password',
      key: 'password',
      render: (_, member) => (
        <Space>
          <span aria-label="Password hidden">••••</span>
          <Button size="small" onClick={() => setResetting(member)}>
            Reset
          </Button>
        </Space>
      ),
    },
    { title: 'OTP', key: 'otp', render: (_, member) => <OtpStatusTag otp={member.otp} /> },
    { title: 'Balance', key: 'balance', align: 'right', className: 'admin-nowrap', render: (_, member) => formatPesoAmount(member.balance) },
    {
      title: 'Status',
      key: 'status',
      render: (_, member) => (
        <Space direction="vertical" size={2}>
          <Tag color={MEMBER_STATUS_COLOURS[member.status]}>{statusLabel(member.status)}</Tag>
          <ClosureTag member={member} />
        </Space>
      ),
    },
    { title: 'Joined', key: 'joined', className: 'admin-nowrap', render: (_, member) => formatDate(member.createdAt) },
    {
      title: 'Actions',
      key: 'actions',
      render: (_, member) => {
        const { verb } = toggledStatus(member.status);
        return (
          // Two steady lines in every row: the everyday actions, then the ones that change the account's standing.
          <Space direction="vertical" size={4}>
            <Space size={4}>
              <Button size="small" onClick={() => setEditing({ member })}>
                Edit
              </Button>
              <Button size="small" onClick={() => setAdjusting(member)}>
                Adjust balance
              </Button>
              <Button size="small" onClick={() => setMessaging(member)}>
                Message
              </Button>
              <Button size="small" onClick={() => setAuditing({ stream: `member-${member.id}`, title: member.fullName, memberId: member.id })}>
                History
              </Button>
            </Space>
            <Space size={4}>
              <ConfirmAction
                action={verb}
                title={`${verb} member`}
                description={`Are you sure you want to ${verb.toLowerCase()} ${member.fullName}?`}
                onConfirm={() => toggleStatus(member)}
                button={{ danger: verb === 'Deactivate' }}
              />
              <ConfirmAction action="Delete" title="Delete member" description={`Are you sure you want to delete ${member.fullName}? This cannot be undone.`} onConfirm={() => remove(member)} destructive />
            </Space>
          </Space>
        );
      },
    },
  ];

  return (
    <>
      <PageHeader title="Members">
        <Button type="primary" onClick={() => setEditing({ member: null })}>
          Add member
        </Button>
      </PageHeader>
      <Suspense fallback={null}>
        <PortfolioCards />
        <DashboardCharts />
      </Suspense>
      <ListToolbar
        label="Search members"
        placeholder="Search by name, phone or email"
        width={360}
        onSearch={filters.setSearch}
        status={{ value: filters.status, onChange: filters.setStatus, statuses: MEMBER_STATUSES }}
      />
      <Space style={{ marginBottom: 12 }}>
        <Typography.Text>Account closure</Typography.Text>
        <Select
          aria-label="Filter by account closure request"
          style={{ width: 240 }}
          value={closure}
          onChange={(value: string) => {
            setClosure(value);
            filters.setPage(1);
          }}
          options={[
            { value: 'all', label: 'All members' },
            { value: 'requested', label: 'Asked to close their account' },
            { value: 'refused', label: 'Closure refused (obligations open)' },
            { value: 'closed', label: 'Closed accounts' },
          ]}
        />
      </Space>
      <Table<AdminMemberAnswer> columns={columns} {...pagedTableProps(list, filters, { empty: 'No members found', counted: 'members' })} />
      <MemberFormDialog open={editing !== null} member={editing?.member ?? null} onClose={() => setEditing(null)} onSaved={(member, created) => (created ? list.refetch() : list.replace(member))} />
      <PasswordResetDialog member={resetting} onClose={() => setResetting(null)} onReset={list.replace} />
      <BalanceAdjustmentDialog member={adjusting} onClose={() => setAdjusting(null)} onAdjusted={list.replace} />
      <MessageMemberDialog member={messaging} onClose={() => setMessaging(null)} />
      <AuditDrawer subject={auditing} onClose={() => setAuditing(null)} />
    </>
  );
}

/** The member's request to close their account (RA 10173 sec. 16(e)), as the row shows it: closed, or refused with what stands in the way. */
function ClosureTag({ member }: { member: AdminMemberAnswer }) {
  const closure = member.closure;
  if (!closure) return null;
  if (closure.outcome === 'closed') {
    return (
      <Tag color="default" title={`Reason: ${closure.reason}`}>
        Closed at their request {closure.closedAt ? formatDate(closure.closedAt) : ''}
      </Tag>
    );
  }
  return (
    <Tag color="orange" title={[`Reason: ${closure.reason}`, ...closure.obligations.map((obligation) => obligation.message)].join('\n')}>
      Asked to close {formatDate(closure.requestedAt)}: {closure.obligations.length} open
    </Tag>
  );
}
