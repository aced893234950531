import { APPROVAL_KIND_LABELS, APPROVAL_KINDS, type ApprovalSettingsAnswer } from '@honeylend/contracts';
import { Button, Card, Form, InputNumber, Switch, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { apiRequest } from '../../shared/api';
import { attempt, failureToast, successToast } from '../../console/adminApi';
import { PESO_INPUT } from '../pesoInput';

/**
 * Settings → Four eyes (main admin only): which money and identity commands need a second admin,
 * and from which amounts a withdrawal completion and a loan approval do. Saving records an event.
 */
export function ApprovalSettingsCard() {
  const [form] = Form.useForm<ApprovalSettingsAnswer>();
  const [saving, setSaving] = useState(false);
  const [loaded, setLoaded] = useState(false);

  useEffect(() => {
    apiRequest<ApprovalSettingsAnswer>('/api/admin/settings/approvals', { cache: 'no-store' }).then(
      (answer) => {
        form.setFieldsValue(answer);
        setLoaded(true);
      },
      (error: unknown) => failureToast('Failed to fetch the approval settings', error),
    );
  }, [form]);

  async function save(values: ApprovalSettingsAnswer) {
    setSaving(true);
    const saved = await attempt<ApprovalSettingsAnswer>('Saving Failed', '/api/admin/settings/approvals', { method: 'PUT', body: values });
    setSaving(false);
    if (!saved) return;
    form.setFieldsValue(saved);
    successToast('Approval settings saved', 'They apply to the next command an admin makes.');
  }

  return (
    <Card title="Four eyes (approvals)">
      <Typography.Paragraph type="secondary">The commands switched on here wait for a different admin's approval on the Approvals page before anything happens (segregation of duties).</Typography.Paragraph>
      <Form form={form} layout="horizontal" labelCol={{ span: 10 }} wrapperCol={{ span: 14 }} onFinish={(values) => void save(values)} style={{ maxWidth: 620 }} disabled={!loaded}>
        {APPROVAL_KINDS.map((kind) => (
          <Form.Item key={kind} name={['required', kind]} label={APPROVAL_KIND_LABELS[kind]} valuePropName="checked">
            <Switch aria-label={`${APPROVAL_KIND_LABELS[kind]} needs a second admin`} />
          </Form.Item>
        ))}
        <Form.Item name="withdrawalThreshold" label="Withdrawal completions from" rules={[{ required: true, message: 'Required' }]}>
          <InputNumber min={0} precision={2} style={{ width: '100%' }} {...PESO_INPUT} />
        </Form.Item>
        <Form.Item name="loanApprovalThreshold" label="Loan approvals from" rules={[{ required: true, message: 'Required' }]}>
          <InputNumber min={0} precision={2} style={{ width: '100%' }} {...PESO_INPUT} />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={saving}>
          Save approval settings
        </Button>
      </Form>
    </Card>
  );
}
