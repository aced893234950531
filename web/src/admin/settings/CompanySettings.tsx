import { isCompanySet, type CompanyAnswer, type CompanyDetails } from '@honeylend/contracts';
import { Alert, Button, Card, Form, Input } from 'antd';
import { useEffect, useState } from 'react';
import { apiRequest } from '../../shared/api';
import { attempt, failureToast, successToast } from '../../console/adminApi';

const FIELDS: { name: keyof CompanyDetails; label: string; placeholder?: string }[] = [
  { name: 'companyName', label: 'Corporate name' },
  { name: 'secRegistrationNumber', label: 'SEC registration number' },
  { name: 'certificateOfAuthorityNumber', label: 'Certificate of Authority number' },
  { name: 'dateRegistered', label: 'Date registered', placeholder: 'YYYY-MM-DD' },
  { name: 'status', label: 'Status', placeholder: 'e.g. Registered' },
  { name: 'address', label: 'Address' },
  { name: 'contact', label: 'Contact (phone or email)' },
];

/**
 * Settings → Company (main admin only): the lender's legal identity every borrower page shows
 * (SEC MC 19 s.2019). Saving records an event; until the first save borrowers see none of it.
 */
export function CompanySettings() {
  const [form] = Form.useForm<CompanyDetails>();
  const [set, setSet] = useState<boolean | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    apiRequest<CompanyAnswer>('/api/company', { cache: 'no-store' }).then(
      (answer) => {
        setSet(isCompanySet(answer));
        if (isCompanySet(answer)) form.setFieldsValue(answer);
      },
      (error: unknown) => failureToast('Failed to fetch the company details', error),
    );
  }, [form]);

  async function save(values: CompanyDetails) {
    setSaving(true);
    const saved = await attempt<CompanyDetails>('Saving Failed', '/api/admin/settings/company', { method: 'PUT', body: values });
    setSaving(false);
    if (!saved) return;
    setSet(true);
    form.setFieldsValue(saved);
    successToast('Company details saved', 'Every borrower page now names the lender with them.');
  }

  return (
    <Card title="Company">
      {set === false && <Alert type="warning" showIcon style={{ marginBottom: 16 }} message="The operator details are missing: borrowers see no lender name, SEC registration or Certificate of Authority number." />}
      <Form form={form} layout="vertical" onFinish={(values) => void save(values)} style={{ maxWidth: 560 }}>
        {FIELDS.map((field) => (
          <Form.Item key={field.name} name={field.name} label={field.label} rules={[{ required: true, whitespace: true, message: 'Required' }]}>
            <Input placeholder={field.placeholder} />
          </Form.Item>
        ))}
        <Button type="primary" htmlType="submit" loading={saving}>
          Save company details
        </Button>
      </Form>
    </Card>
  );
}
