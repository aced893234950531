import { EXECUTION_RESUME_AFTER_MS, type ApprovalAnswer } from '@honeylend/contracts';
import { Button, Form, Input, Modal, Select, Space, Table, Tag, Tooltip, Typography, type TableColumnsType } from 'antd';
import { useEffect, useState } from 'react';
import { readToken, tokenSubjectOf } from '../../shared/authToken';
import { formatDateTime, formatPesoAmount, statusLabel } from '../../shared/money';
import { attempt, failureToast, successToast } from '../../console/adminApi';
import { businessShiftMs } from '../../console/businessClock';
import { ConfirmAction } from '../layout/ConfirmAction';
import { PageHeader } from '../../console/layout/PageHeader';
import { statusOptions } from '../lists/ListToolbar';
import { pagedTableProps, useListFilters } from '../lists/pagedList';
import { useLiveList } from '../live/useLiveList';

const STATUSES = ['pending', 'approved', 'rejected', 'expired'] as const;
const STATUS_COLOURS: Record<string, string> = { pending: 'gold', approved: 'green', rejected: 'red', expired: 'default' };
export const OWN_REQUEST_REASON = 'You made this request: a different admin must approve it (four eyes).';

/** "4 min ago", "2 h ago": how long a request has waited. */
export function ageOf(from: string, now: number): string {
  const minutes = Math.max(0, Math.floor((now - Date.parse(from)) / 60_000));
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  return hours < 24 ? `${hours} h ${minutes % 60} min ago` : `${Math.floor(hours / 24)} d ago`;
}

/**
 * Now on the server's business clock (requests are dated on it), re-rendering every 30 s so the
 * ages move on without a reload.
 */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  const [shiftMs, setShiftMs] = useState(0);
  useEffect(() => {
    let mounted = true;
    void businessShiftMs().then((shift) => mounted && setShiftMs(shift));
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => {
      mounted = false;
      clearInterval(timer);
    };
  }, []);
  return now + shiftMs;
}

/** Approved, its command never recorded as run, and long enough ago to say it stopped (the server's own rule). */
function stopped(approval: ApprovalAnswer, now: number): boolean {
  return approval.status === 'approved' && approval.execution?.outcome === 'running' && approval.decidedAt !== null && now - Date.parse(approval.decidedAt) >= EXECUTION_RESUME_AFTER_MS;
}

function outcomeTag(approval: ApprovalAnswer) {
  if (approval.status !== 'approved' || !approval.execution) return null;
  if (approval.execution.outcome === 'done') return <Tag color="green">Carried out</Tag>;
  if (approval.execution.outcome === 'running') return <Tag color="processing">Running</Tag>;
  return (
    <Tooltip title={approval.execution.message}>
      <Tag color="red">Not carried out</Tag>
    </Tooltip>
  );
}

/**
 * Four eyes on money (design §11): the requests waiting for a second admin, live over the admins'
 * room (a new request, or another admin's decision, shows without a reload). Approving runs the
 * command once; the maker's own requests cannot be approved by them, and the button says why.
 */
export function ApprovalsPage() {
  const filters = useListFilters('pending');
  const list = useLiveList<ApprovalAnswer, ApprovalAnswer>({
    path: '/api/admin/approvals',
    query: filters.query,
    failureTitle: 'Failed to fetch approvals',
    updated: 'approval.updated',
    merge: (_held, pushed) => pushed,
  });
  const now = useNow();
  const token = readToken();
  const me = token ? tokenSubjectOf(token) : null;
  const [rejecting, setRejecting] = useState<ApprovalAnswer | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  async function approve(approval: ApprovalAnswer) {
    setBusy(approval.id);
    const answer = await attempt<ApprovalAnswer>('Approval failed', `/api/admin/approvals/${approval.id}/approve`, { method: 'POST' });
    setBusy(null);
    if (!answer) return;
    list.replace(answer);
    if (answer.execution?.outcome === 'refused') failureToast('Approved, but not carried out', answer.execution.message);
    else successToast('Approved', answer.summary);
  }

  const columns: TableColumnsType<ApprovalAnswer> = [
    {
      title: 'Requested',
      key: 'age',
      className: 'admin-nowrap',
      render: (_, approval) => (
        <Tooltip title={`${formatDateTime(approval.requestedAt)}; expires ${formatDateTime(approval.expiresAt)}`}>
          <span>{ageOf(approval.requestedAt, now)}</span>
        </Tooltip>
      ),
    },
    {
      title: 'Command',
      key: 'command',
      render: (_, approval) => (
        <Space direction="vertical" size={0}>
          <Typography.Text strong>{approval.kindLabel}</Typography.Text>
          <Typography.Text>{approval.summary}</Typography.Text>
          {approval.reason && <Typography.Text type="secondary">Reason: {approval.reason}</Typography.Text>}
        </Space>
      ),
    },
    { title: 'Amount', key: 'amount', align: 'right', className: 'admin-nowrap', render: (_, approval) => (approval.amount === null ? '—' : formatPesoAmount(approval.amount)) },
    { title: 'Maker', key: 'maker', render: (_, approval) => (approval.maker.id === me ? 'You' : (approval.maker.name ?? 'An admin')) },
    {
      title: 'Status',
      key: 'status',
      render: (_, approval) => (
        <Space direction="vertical" size={2}>
          <Tag color={STATUS_COLOURS[approval.status]}>{statusLabel(approval.status)}</Tag>
          {outcomeTag(approval)}
          {approval.decidedBy && <Typography.Text type="secondary">by {approval.decidedBy.id === me ? 'you' : (approval.decidedBy.name ?? 'an admin')}</Typography.Text>}
          {approval.rejectionReason && <Typography.Text type="secondary">{approval.rejectionReason}</Typography.Text>}
        </Space>
      ),
    },
    {
      title: 'Actions',
      key: 'actions',
      render: (_, approval) => {
        const own = approval.maker.id === me;
        if (stopped(approval, now) && !own)
          return (
            <ConfirmAction
              action="Carry out"
              title="Carry out this approved request?"
              description={`${approval.summary}. It was approved, but its command did not run (the server stopped in between). It runs once, whoever carries it out.`}
              onConfirm={() => approve(approval)}
              button={{ type: 'primary', loading: busy === approval.id }}
            />
          );
        if (approval.status !== 'pending') return null;
        return (
          <Space>
            {own ? (
              <Tooltip title={OWN_REQUEST_REASON}>
                {/* A disabled button gets no pointer events: the span carries the tooltip. */}
                <span>
                  <Button size="small" type="primary" disabled aria-description={OWN_REQUEST_REASON}>
                    Approve
                  </Button>
                </span>
              </Tooltip>
            ) : (
              <ConfirmAction action="Approve" title="Approve this request?" description={approval.summary} onConfirm={() => approve(approval)} button={{ type: 'primary', loading: busy === approval.id }} />
            )}
            <Button size="small" danger onClick={() => setRejecting(approval)}>
              Reject
            </Button>
          </Space>
        );
      },
    },
  ];

  return (
    <>
      <PageHeader title="Approvals" />
      <Typography.Paragraph type="secondary">
        Money-moving and identity-changing commands wait here for a second admin (four eyes). Nothing happens until a different admin approves; a request not decided within 24 hours expires.
      </Typography.Paragraph>
      <div className="admin-toolbar">
        <Select aria-label="Status filter" value={filters.status} style={{ width: 160 }} onChange={filters.setStatus} options={[{ value: 'all', label: 'All' }, ...statusOptions(STATUSES)]} />
      </div>
      <Table<ApprovalAnswer> columns={columns} {...pagedTableProps(list, filters, { empty: 'No requests', counted: 'requests' })} />
      <RejectDialog approval={rejecting} onClose={() => setRejecting(null)} onRejected={list.replace} />
    </>
  );
}

function RejectDialog({ approval, onClose, onRejected }: { approval: ApprovalAnswer | null; onClose: () => void; onRejected: (approval: ApprovalAnswer) => void }) {
  const [form] = Form.useForm<{ reason: string }>();
  const [saving, setSaving] = useState(false);
  async function submit() {
    if (!approval) return;
    let values: { reason: string };
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    setSaving(true);
    const answer = await attempt<ApprovalAnswer>('Rejection failed', `/api/admin/approvals/${approval.id}/reject`, { method: 'POST', body: { reason: values.reason.trim() } });
    setSaving(false);
    if (!answer) return;
    successToast('Rejected', `${answer.summary}: it will not happen.`);
    onRejected(answer);
    form.resetFields();
    onClose();
  }
  return (
    <Modal open={approval !== null} title="Reject request" okText="Reject" okButtonProps={{ danger: true }} confirmLoading={saving} onOk={() => void submit()} onCancel={onClose} destroyOnHidden>
      <Typography.Paragraph>{approval?.summary}</Typography.Paragraph>
      <Form form={form} layout="vertical" requiredMark={false}>
        <Form.Item
          name="reason"
          label="Reason"
          rules={[
            {
              validator: async (_rule, value: unknown) => {
                if (typeof value !== 'string' || value.trim().length < 5) throw new Error('Give a reason of at least 5 characters');
              },
            },
          ]}
        >
          <Input.TextArea rows={3} maxLength={500} showCount />
        </Form.Item>
      </Form>
    </Modal>
  );
}
