import type { AdminMemberAnswer } from '@honeylend/contracts';
import { Form, Input, InputNumber, Modal, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { apiRequest, serverFieldErrors } from '../../shared/api';
import { formatPesoAmount } from '../../shared/money';
import { failureToast, sentForApproval, successToast } from '../../console/adminApi';
import { PESO_INPUT } from '../pesoInput';
import { useApprovalSettings } from '../settings/useApprovalSettings';

export const ADJUSTMENT_MESSAGES = {
  amount: 'Enter a non-zero amount in pesos, e.g. 500 or -250.50',
  reason: 'Give a reason of at least 5 characters',
} as const;

interface AdjustmentValues {
  amount: number | null;
  reason: string;
}

interface AdjustmentAnswer {
  adjustment: { id: string; amount: number; reason: string; balanceAfter: number };
  user: AdminMemberAnswer;
}

/** Design §7: the balance is never set; the admin posts a signed adjustment in pesos with a reason, which is audited. */
export function BalanceAdjustmentDialog({ member, onClose, onAdjusted }: { member: AdminMemberAnswer | null; onClose: () => void; onAdjusted: (member: AdminMemberAnswer) => void }) {
  const [form] = Form.useForm<AdjustmentValues>();
  const [saving, setSaving] = useState(false);
  const amount = Form.useWatch('amount', form);
  const approvals = useApprovalSettings(member !== null);
  // Whether the adjustment happens on this click or waits for a second admin: the button says which (unknown: neither).
  const fourEyes = approvals ? approvals.required.balance_adjustment : null;
  // One key per opening of the dialog: resending the same adjustment cannot post it twice.
  const [idempotencyKey, setIdempotencyKey] = useState(() => crypto.randomUUID());

  useEffect(() => {
    if (!member) return;
    form.resetFields();
    setIdempotencyKey(crypto.randomUUID());
  }, [member, form]);

  async function submit() {
    if (!member) return;
    let values: AdjustmentValues;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    setSaving(true);
    let answer: AdjustmentAnswer | { approvalId: string; status: 'awaiting_approval' };
    try {
      answer = await apiRequest<AdjustmentAnswer>(`/api/admin/users/${member.id}/balance-adjustments`, {
        method: 'POST',
        body: { amount: values.amount, reason: values.reason.trim() },
        // A double click or a retried request posts the adjustment once.
        headers: { 'Idempotency-Key': idempotencyKey },
      });
    } catch (error) {
      form.setFields(Object.entries(serverFieldErrors(error)).map(([name, message]) => ({ name: name as keyof AdjustmentValues, errors: [message] })));
      failureToast('Update failed', error);
      setIdempotencyKey(crypto.randomUUID());
      return;
    } finally {
      setSaving(false);
    }
    // Four eyes: the balance does not move until a different admin approves.
    if (sentForApproval(answer, `Adjusting ${member.fullName}'s balance by ${formatPesoAmount(values.amount!)}`)) return onClose();
    successToast('Balance adjusted', `New balance: ${formatPesoAmount(answer.adjustment.balanceAfter)}`);
    onAdjusted(answer.user);
    onClose();
  }

  const after = member && typeof amount === 'number' ? member.balance + amount : null;
  return (
    <Modal
      open={member !== null}
      title="Adjust balance"
      okText={fourEyes === null ? 'Submit adjustment' : fourEyes ? 'Request adjustment' : 'Post adjustment'}
      onOk={() => void submit()}
      confirmLoading={saving}
      onCancel={onClose}
      destroyOnHidden
    >
      <Typography.Paragraph>
        {member?.fullName}'s balance: <strong>{member ? formatPesoAmount(member.balance) : ''}</strong>
        {after !== null && (
          <>
            {' '}
            → <strong>{formatPesoAmount(after)}</strong>
          </>
        )}
      </Typography.Paragraph>
      <Form form={form} layout="vertical" requiredMark={false} initialValues={{ amount: null, reason: '' }}>
        <Form.Item
          name="amount"
          label="Amount in pesos (negative to debit)"
          rules={[
            {
              validator: async (_rule, value: unknown) => {
                if (typeof value !== 'number' || value === 0 || !Number.isFinite(value)) throw new Error(ADJUSTMENT_MESSAGES.amount);
              },
            },
          ]}
        >
          <InputNumber precision={2} step={100} style={{ width: '100%' }} placeholder="e.g. 500 or -250.50" {...PESO_INPUT} />
        </Form.Item>
        <Form.Item
          name="reason"
          label="Reason"
          rules={[
            {
              validator: async (_rule, value: unknown) => {
                if (typeof value !== 'string' || value.trim().length < 5) throw new Error(ADJUSTMENT_MESSAGES.reason);
              },
            },
          ]}
        >
          <Input.TextArea rows={3} maxLength={500} showCount />
        </Form.Item>
      </Form>
      {fourEyes && <Typography.Paragraph type="secondary">A second admin must approve this on the Approvals page; the balance moves only then.</Typography.Paragraph>}
    </Modal>
  );
}
