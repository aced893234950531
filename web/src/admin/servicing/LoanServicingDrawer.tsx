import { businessDateOf, type AdminLoanAnswer, type ApprovalAnswer, type BusinessDateAnswer, type LoanAnswer, type RepaymentReceiptAnswer } from '@honeylend/contracts';
import { Button, Descriptions, Drawer, Form, Input, InputNumber, Modal, Select, Space, Table, Tag, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { ApiError, apiRequest } from '../../shared/api';
import { formatDate, formatPesoAmount, statusLabel } from '../../shared/money';
import { attempt, failureToast, sentForApproval, successToast, type ListPage } from '../../console/adminApi';
import { useAdminEvent } from '../live/adminFeed';
import { PESO_INPUT } from '../pesoInput';
import { BUCKET_COLOURS } from './bucketColours';

type AdminLoanDetail = AdminLoanAnswer & { schedule: LoanAnswer['schedule'] };
type Repayment = LoanAnswer['repayments'][number];
type RecordValues = { amount: number; channel: string; reference: string; valueDate: string };

const isDuplicateReference = (error: unknown): error is ApiError => error instanceof ApiError && error.status === 409 && (error.data as { code?: unknown } | null)?.code === 'REFERENCE_ALREADY_RECORDED';

const INSTALMENT_COLOURS: Record<string, string> = { paid: 'green', due: 'gold', partially_paid: 'orange', overdue: 'red', upcoming: 'default' };
const CHANNELS = [
  { value: 'gcash', label: 'GCash' },
  { value: 'maya', label: 'Maya' },
  { value: 'bank', label: 'Bank' },
  { value: 'cash', label: 'Over the counter' },
];

/** Today's business date: the moved one outside production, else the Manila calendar's. */
async function businessToday(): Promise<string> {
  try {
    return (await apiRequest<BusinessDateAnswer>('/api/dev/business-date')).date;
  } catch {
    return businessDateOf(new Date().toISOString());
  }
}

/**
 * A loan's servicing for an admin: what is owed, the schedule, the repayments (record one that came
 * through an outside channel, reverse one with a reason) and late-charge waivers. Follows the loan live.
 */
export function LoanServicingDrawer({ loanId, onClose }: { loanId: string | null; onClose: () => void }) {
  const [loan, setLoan] = useState<AdminLoanDetail | null>(null);
  const [today, setToday] = useState<string>(() => businessDateOf(new Date().toISOString()));
  const [reversing, setReversing] = useState<Repayment | null>(null);
  const [reason, setReason] = useState('');
  /** A repayment whose reference the loan already has: recorded only once an admin says why it is another payment. */
  const [duplicate, setDuplicate] = useState<{ values: RecordValues; message: string } | null>(null);
  const [duplicateReason, setDuplicateReason] = useState('');
  const [recordForm] = Form.useForm();
  const [waiverForm] = Form.useForm();

  /** Requests on this loan waiting for a second admin: shown where they apply, and their action not offered again. */
  const [waiting, setWaiting] = useState<ApprovalAnswer[]>([]);

  const load = useCallback(() => {
    if (!loanId) return;
    apiRequest<AdminLoanDetail>(`/api/admin/loans/${loanId}`)
      .then(setLoan)
      .catch(() => setLoan(null));
  }, [loanId]);

  const memberId = loan?.memberId;
  const loadWaiting = useCallback(() => {
    if (!memberId) return;
    apiRequest<ListPage<ApprovalAnswer>>(`/api/admin/approvals?status=pending&memberId=${memberId}&pageSize=100`)
      .then((answer) => setWaiting(answer.items.filter((request) => request.loanId === loanId)))
      .catch(() => setWaiting([]));
  }, [memberId, loanId]);
  useEffect(loadWaiting, [loadWaiting]);
  useAdminEvent<{ id: string }>(memberId ? 'approval.updated' : null, () => loadWaiting());
  const reversalWaiting = (repayment: Repayment) => waiting.some((request) => request.target === `repayment:${repayment.id}`);
  const waiversWaiting = waiting.filter((request) => request.kind === 'penalty_waiver');

  useEffect(() => {
    setLoan(null);
    load();
    void businessToday().then((date) => {
      setToday(date);
      recordForm.setFieldValue('valueDate', date);
    });
  }, [load, recordForm]);
  useAdminEvent<{ id: string }>(loanId ? 'loan.updated' : null, ({ doc }) => {
    if (doc.id === loanId) load();
  });

  async function record(values: RecordValues, duplicateReferenceReason?: string) {
    let receipt: RepaymentReceiptAnswer;
    try {
      receipt = await apiRequest<RepaymentReceiptAnswer>(`/api/admin/loans/${loanId}/repayments`, { method: 'POST', body: { ...values, duplicateReferenceReason } });
    } catch (error) {
      if (isDuplicateReference(error)) setDuplicate({ values, message: error.message });
      else failureToast('Recording failed', error);
      return;
    }
    setDuplicate(null);
    setDuplicateReason('');
    successToast('Repayment recorded', `${receipt.receiptNumber}: ${formatPesoAmount(receipt.amount)}`);
    recordForm.resetFields(['amount', 'reference']);
    load();
  }

  async function reverse() {
    if (!reversing) return;
    const answer = await attempt<AdminLoanDetail>('Reversal failed', `/api/admin/loans/${loanId}/repayments/${reversing.id}/reversal`, { method: 'POST', body: { reason } });
    if (!answer) return;
    if (sentForApproval(answer, `Reversing ${reversing.receiptNumber}`)) {
      setReversing(null);
      setReason('');
      loadWaiting();
      return;
    }
    setLoan(answer);
    successToast('Repayment reversed', `${reversing.receiptNumber} no longer counts.`);
    setReversing(null);
    setReason('');
  }

  async function waive(values: { amount: number; reason: string }) {
    const answer = await attempt<AdminLoanDetail>('Waiver failed', `/api/admin/loans/${loanId}/penalty-waivers`, { method: 'POST', body: values });
    if (!answer) return;
    if (sentForApproval(answer, `Waiving ${formatPesoAmount(values.amount)} of late charges`)) {
      loadWaiting();
      return waiverForm.resetFields();
    }
    setLoan(answer);
    successToast('Late charges waived', formatPesoAmount(values.amount));
    waiverForm.resetFields();
  }

  const active = loan?.status === 'active';
  return (
    <Drawer open={loanId !== null} onClose={onClose} width={860} title={loan ? `Loan ${loan.loanNumber}` : 'Loan'} destroyOnHidden>
      {loan && (
        <Space direction="vertical" size="large" style={{ width: '100%' }}>
          <Descriptions size="small" column={3} bordered>
            <Descriptions.Item label="Borrower">{loan.member?.fullName ?? '—'}</Descriptions.Item>
            <Descriptions.Item label="Status">{statusLabel(loan.status)}</Descriptions.Item>
            <Descriptions.Item label="Bucket">
              <Tag color={BUCKET_COLOURS[loan.delinquencyBucket]}>{loan.delinquencyBucket === 'current' ? 'Current' : `${loan.delinquencyBucket} days`}</Tag>
              {loan.daysPastDue > 0 && `${loan.daysPastDue} days past due`}
            </Descriptions.Item>
            <Descriptions.Item label="Outstanding">{formatPesoAmount(loan.outstanding.total)}</Descriptions.Item>
            <Descriptions.Item label="Late charges">{formatPesoAmount(loan.outstanding.penalties)}</Descriptions.Item>
            <Descriptions.Item label="Next due">{loan.nextDue ? `${formatPesoAmount(loan.nextDue.amount)} on ${formatDate(loan.nextDue.date)}` : '—'}</Descriptions.Item>
          </Descriptions>

          <div>
            <Typography.Title level={5}>Repayments</Typography.Title>
            <Table<Repayment>
              size="small"
              rowKey="id"
              pagination={false}
              dataSource={loan.repayments}
              locale={{ emptyText: 'No repayments yet' }}
              columns={[
                { title: 'Receipt', key: 'receipt', className: 'admin-nowrap', render: (_, row) => <Typography.Text code>{row.receiptNumber}</Typography.Text> },
                { title: 'Value date', key: 'valueDate', className: 'admin-nowrap', render: (_, row) => formatDate(row.valueDate) },
                // A wallet repayment's reference is its own id: the channel says all.
                { title: 'Channel', key: 'channel', render: (_, row) => (row.channel === 'wallet' ? 'Wallet' : `${statusLabel(row.channel)} · ${row.reference}`) },
                { title: 'Amount', key: 'amount', align: 'right', render: (_, row) => formatPesoAmount(row.amount) },
                {
                  title: '',
                  key: 'actions',
                  render: (_, row) =>
                    row.reversed ? (
                      <Tag>Reversed</Tag>
                    ) : reversalWaiting(row) ? (
                      <Tag color="gold">Reversal awaiting approval</Tag>
                    ) : active ? (
                      <Button size="small" danger onClick={() => setReversing(row)}>
                        Reverse
                      </Button>
                    ) : null,
                },
              ]}
            />
          </div>

          {active && (
            <div className="admin-servicing-forms">
              <Form form={recordForm} name="recordRepayment" layout="vertical" onFinish={(values: RecordValues) => void record(values)} initialValues={{ channel: 'gcash', valueDate: today }}>
                <Typography.Title level={5}>Record a repayment</Typography.Title>
                <Space align="start" wrap>
                  <Form.Item name="amount" label="Amount" rules={[{ required: true, message: 'Enter the amount' }]}>
                    <InputNumber min={0.01} step={100} style={{ width: 160 }} {...PESO_INPUT} />
                  </Form.Item>
                  <Form.Item name="channel" label="Channel">
                    <Select options={CHANNELS} style={{ width: 160 }} />
                  </Form.Item>
                  <Form.Item name="reference" label="Reference" rules={[{ required: true, message: "Enter the channel's reference" }]}>
                    <Input style={{ width: 160 }} maxLength={100} />
                  </Form.Item>
                  <Form.Item name="valueDate" label="Value date" rules={[{ required: true, message: 'Enter the value date' }]}>
                    <Input type="date" max={today} style={{ width: 150 }} />
                  </Form.Item>
                </Space>
                <Button type="primary" htmlType="submit">
                  Record repayment
                </Button>
              </Form>
              {loan.outstanding.penalties > 0 && (
                <Form form={waiverForm} name="waiveLateCharges" layout="vertical" onFinish={(values: Parameters<typeof waive>[0]) => void waive(values)}>
                  <Typography.Title level={5}>Waive late charges (up to {formatPesoAmount(loan.outstanding.penalties)})</Typography.Title>
                  {waiversWaiting.map((request) => (
                    <Typography.Paragraph key={request.id} data-testid="waiver-awaiting-approval">
                      <Tag color="gold">Awaiting approval</Tag> a waiver of {formatPesoAmount(request.amount ?? 0)} requested by {request.maker.name ?? 'an admin'}
                    </Typography.Paragraph>
                  ))}
                  <Space align="start" wrap>
                    <Form.Item name="amount" label="Amount" rules={[{ required: true, message: 'Enter the amount' }]}>
                      <InputNumber min={0.01} max={loan.outstanding.penalties} style={{ width: 160 }} {...PESO_INPUT} />
                    </Form.Item>
                    <Form.Item name="reason" label="Reason" rules={[{ required: true, min: 5, message: 'Give a reason (5 to 500 characters)' }]}>
                      <Input style={{ width: 320 }} maxLength={500} />
                    </Form.Item>
                  </Space>
                  <Button htmlType="submit">Waive</Button>
                </Form>
              )}
            </div>
          )}

          <div>
            <Typography.Title level={5}>Schedule</Typography.Title>
            <Table
              size="small"
              rowKey="number"
              pagination={false}
              dataSource={loan.schedule}
              columns={[
                { title: '#', dataIndex: 'number' },
                { title: 'Due', key: 'due', render: (_, row) => formatDate(row.dueDate) },
                { title: 'Amount', key: 'amount', align: 'right', render: (_, row) => formatPesoAmount(row.amount) },
                { title: 'Late charge', key: 'penalty', align: 'right', render: (_, row) => (row.penalty ? formatPesoAmount(row.penalty) : '—') },
                { title: 'Paid', key: 'paid', align: 'right', render: (_, row) => formatPesoAmount(row.paid) },
                {
                  title: 'Status',
                  key: 'status',
                  render: (_, row) => (
                    <Tag color={INSTALMENT_COLOURS[row.status]}>
                      {statusLabel(row.status)}
                      {row.daysPastDue ? ` · ${row.daysPastDue} d` : ''}
                    </Tag>
                  ),
                },
              ]}
            />
          </div>
        </Space>
      )}
      <Modal
        open={reversing !== null}
        title={reversing ? `Reverse ${reversing.receiptNumber}?` : 'Reverse'}
        okText="Reverse"
        okButtonProps={{ danger: true, disabled: reason.trim().length < 5 }}
        onOk={() => void reverse()}
        onCancel={() => setReversing(null)}
      >
        <p>The repayment stops counting and the loan is recalculated without it. A wallet payment goes back to the wallet.</p>
        <Input.TextArea aria-label="Reason" placeholder="Reason (e.g. cheque bounced)" value={reason} onChange={(event) => setReason(event.target.value)} maxLength={500} />
      </Modal>
      <Modal
        open={duplicate !== null}
        title="This reference is already on the loan"
        okText="Record as another payment"
        okButtonProps={{ disabled: duplicateReason.trim().length < 5 }}
        onOk={() => duplicate && void record(duplicate.values, duplicateReason.trim())}
        onCancel={() => setDuplicate(null)}
      >
        <p>{duplicate?.message}</p>
        <p>Nothing was recorded. Record it only if it is a different payment; the reason is kept with the receipt.</p>
        <Input.TextArea aria-label="Why this is another payment" placeholder="Why this is another payment" value={duplicateReason} onChange={(event) => setDuplicateReason(event.target.value)} maxLength={500} />
      </Modal>
    </Drawer>
  );
}
