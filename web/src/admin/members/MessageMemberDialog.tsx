import type { AdminMemberAnswer } from '@honeylend/contracts';
import { Form, Input, Modal, Select, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { apiRequest, serverFieldErrors } from '../../shared/api';
import { failureToast, successToast } from '../../console/adminApi';

interface MessageValues {
  title: string;
  message: string;
  type: 'general' | 'account' | 'loan_update' | 'withdrawal_update';
}

const TYPES: { value: MessageValues['type']; label: string }[] = [
  { value: 'general', label: 'General' },
  { value: 'account', label: 'Account' },
  { value: 'loan_update', label: 'Loan update' },
  { value: 'withdrawal_update', label: 'Withdrawal update' },
];

/**
 * A message to one member from their row (issue 17, item 5): POST /api/admin/notifications, in the
 * member's app (their inbox, live) and by SMS. The API refuses a text asking the borrower for money
 * (400 MONEY_REQUEST), shown on the field that asked.
 */
export function MessageMemberDialog({ member, onClose }: { member: AdminMemberAnswer | null; onClose: () => void }) {
  const [form] = Form.useForm<MessageValues>();
  const [sending, setSending] = useState(false);
  // One key per opening: a double click or a retried request sends the message once.
  const [idempotencyKey, setIdempotencyKey] = useState(() => crypto.randomUUID());

  useEffect(() => {
    if (!member) return;
    form.resetFields();
    setIdempotencyKey(crypto.randomUUID());
  }, [member, form]);

  async function submit() {
    if (!member) return;
    let values: MessageValues;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    setSending(true);
    try {
      await apiRequest('/api/admin/notifications', {
        method: 'POST',
        body: { userId: member.id, title: values.title.trim(), message: values.message.trim(), type: values.type },
        headers: { 'Idempotency-Key': idempotencyKey },
      });
    } catch (error) {
      form.setFields(Object.entries(serverFieldErrors(error)).map(([name, message]) => ({ name: name as keyof MessageValues, errors: [message] })));
      failureToast('Message not sent', error);
      setIdempotencyKey(crypto.randomUUID());
      return;
    } finally {
      setSending(false);
    }
    successToast('Message sent', `${member.fullName} will see it in the app and by SMS.`);
    onClose();
  }

  return (
    <Modal open={member !== null} title="Send a message" okText="Send message" onOk={() => void submit()} confirmLoading={sending} onCancel={onClose} destroyOnHidden>
      <Typography.Paragraph>
        To <strong>{member?.fullName}</strong>, in the app and by SMS. Never ask a borrower to pay, deposit or send money: such a message is refused.
      </Typography.Paragraph>
      <Form form={form} layout="vertical" requiredMark={false} initialValues={{ title: '', message: '', type: 'general' }}>
        <Form.Item name="type" label="Type">
          <Select options={TYPES} />
        </Form.Item>
        <Form.Item name="title" label="Title" rules={[{ required: true, whitespace: true, message: 'Enter a title' }]}>
          <Input maxLength={120} showCount />
        </Form.Item>
        <Form.Item name="message" label="Message" rules={[{ required: true, whitespace: true, message: 'Enter a message' }]}>
          <Input.TextArea rows={4} maxLength={1000} showCount />
        </Form.Item>
      </Form>
    </Modal>
  );
}
