import { nextLoanStatuses, type AdminLoanAnswer } from '@honeylend/contracts';
import { Checkbox, Empty, Form, Input, Modal, Select, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { statusLabel } from '../../shared/money';
import { attempt, sentForApproval, successToast } from '../../console/adminApi';

interface StatusValues {
  status: string;
  message: string;
  notify: boolean;
}

/** Spec §2 status-update dialog: only the legal next statuses, and a message that can go to the borrower as a notification. */
export function LoanStatusDialog({ loan, customStatuses, onClose, onChanged }: { loan: AdminLoanAnswer | null; customStatuses: readonly string[]; onClose: () => void; onChanged: (loan: AdminLoanAnswer) => void }) {
  const [form] = Form.useForm<StatusValues>();
  const [saving, setSaving] = useState(false);
  const options = loan ? nextLoanStatuses(loan.status, customStatuses) : [];

  useEffect(() => {
    if (loan) form.setFieldsValue({ status: undefined, message: '', notify: true });
  }, [loan, form]);

  async function save() {
    if (!loan) return;
    let values: StatusValues;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    setSaving(true);
    const answer = await attempt<AdminLoanAnswer>('Update failed', `/api/admin/loans/${loan.id}`, {
      method: 'PUT',
      body: { status: values.status, message: values.message.trim() || undefined, notify: values.notify },
    });
    setSaving(false);
    if (!answer) return;
    if (sentForApproval(answer, `Approving ${loan.loanNumber}`)) return onClose();
    successToast('Loan updated', `${answer.loanNumber} is now ${statusLabel(answer.status).toLowerCase()}.`);
    onChanged(answer);
    onClose();
  }

  return (
    <Modal
      open={loan !== null}
      title={`Update status: ${loan?.loanNumber ?? ''}`}
      okText="Update status"
      onOk={() => void save()}
      okButtonProps={{ disabled: options.length === 0 }}
      confirmLoading={saving}
      onCancel={onClose}
      destroyOnHidden
    >
      {loan && (
        <Typography.Paragraph>
          {loan.member?.fullName ?? 'Closed account'} · currently <strong>{statusLabel(loan.status)}</strong>
        </Typography.Paragraph>
      )}
      {options.length === 0 ? (
        <Empty description={`A ${loan ? statusLabel(loan.status).toLowerCase() : ''} loan has no further status.`} />
      ) : (
        <Form form={form} layout="vertical" requiredMark={false} initialValues={{ notify: true, message: '' }}>
          <Form.Item name="status" label="New status" rules={[{ required: true, message: 'Choose a loan status' }]}>
            <Select aria-label="New status" placeholder="Choose a status" options={options.map((status) => ({ value: status, label: statusLabel(status) }))} />
          </Form.Item>
          <Form.Item
            name="message"
            label="Message to the borrower"
            dependencies={['status']}
            rules={[
              ({ getFieldValue }) => ({
                validator: async (_rule, value: string) => {
                  if (getFieldValue('status') === 'account_issue' && !value?.trim()) throw new Error('Tell the borrower what to fix');
                },
              }),
            ]}
          >
            <Input.TextArea rows={3} maxLength={1000} placeholder="Optional: what the borrower should know" />
          </Form.Item>
          <Form.Item name="notify" valuePropName="checked">
            <Checkbox>Send it to the borrower as a notification</Checkbox>
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}
