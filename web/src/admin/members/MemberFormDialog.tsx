import type { AdminMemberAnswer, DocumentKind } from '@honeylend/contracts';
import { Button, Divider, Form, Input, InputNumber, Modal, Select, Space, Typography, Upload } from 'antd';
import { useEffect, useState } from 'react';
import { apiRequest, apiUpload, serverFieldErrors } from '../../shared/api';
import { toast } from '../../shared/toast/toastStore';
import { failureToast, sentForApproval, successToast } from '../../console/adminApi';
import { statusOptions } from '../lists/ListToolbar';
import { PESO_INPUT } from '../pesoInput';
import { MEMBER_PROFILE_FIELDS, changedFields, changedValueRule, creditScoreRule, given, newMemberRules, statusRule } from './memberFormRules';
import { DOCUMENT_LABELS } from '../../console/history/documentLabels';
import { MEMBER_STATUSES } from './memberStatus';
import { useIsMainAdmin } from '../layout/staffContext';

/** Who may change what (issue 14): the phone is the main admin's to change; an existing bank account the member's, with a texted code. */
function lockedReason(field: string, member: AdminMemberAnswer | null, isMainAdmin: boolean): string | null {
  if (field === 'phone' && !isMainAdmin) return "Only the main admin can change a member's phone number.";
  if ((field === 'bankName' || field === 'bankAccountNumber') && member?.bankName && member.bankAccountNumber) {
    return 'Only the member can change their bank account, with a code sent to their phone.';
  }
  return null;
}

const DOCUMENTS: { kind: DocumentKind; label: string; url: keyof AdminMemberAnswer }[] = [
  { kind: 'idFront', label: DOCUMENT_LABELS.idFront, url: 'idFrontUrl' },
  { kind: 'idBack', label: DOCUMENT_LABELS.idBack, url: 'idBackUrl' },
  { kind: 'selfie', label: DOCUMENT_LABELS.selfie, url: 'selfieUrl' },
];

type FormValues = Record<string, unknown>;

function initialValues(member: AdminMemberAnswer | null): FormValues {
  if (!member) return { phone: '', password: '', fullName: '', email: '' };
  const values: FormValues = { status: member.status, creditScore: member.creditScore };
  for (const field of MEMBER_PROFILE_FIELDS) values[field.name] = member[field.name] ?? undefined;
  return values;
}

/**
 * Spec §2 add/edit member dialog with §5's validation (the server's own rules). Adding registers
 * the member (phone, password, name, email); the dialog then turns into the edit form, where the
 * rest of the profile, the status, the credit score (300–850) and the documents are set.
 */
export function MemberFormDialog({ open, member, onClose, onSaved }: { open: boolean; member: AdminMemberAnswer | null; onClose: () => void; onSaved: (member: AdminMemberAnswer, created: boolean) => void }) {
  const [form] = Form.useForm<FormValues>();
  const [saving, setSaving] = useState(false);
  const [current, setCurrent] = useState<AdminMemberAnswer | null>(member);
  const [uploading, setUploading] = useState<DocumentKind | null>(null);
  const editing = current !== null;
  const isMainAdmin = useIsMainAdmin();

  useEffect(() => {
    if (!open) return;
    setCurrent(member);
    form.resetFields();
    form.setFieldsValue(initialValues(member));
  }, [open, member, form]);

  const before = initialValues(current);

  async function save() {
    let values: FormValues;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    setSaving(true);
    try {
      if (!current) {
        const answer = await apiRequest<{ user: AdminMemberAnswer }>('/api/admin/users', {
          method: 'POST',
          body: { phone: values.phone, password: values.password, fullName: values.fullName, email: given(values.email) },
        });
        successToast('Member created', 'Add the rest of the profile and the documents now.');
        setCurrent(answer.user);
        form.resetFields();
        form.setFieldsValue(initialValues(answer.user));
        onSaved(answer.user, true);
        return;
      }
      const changes = changedFields(before, values);
      if (Object.keys(changes).length === 0) {
        onClose();
        return;
      }
      const answer = await apiRequest<AdminMemberAnswer>(`/api/admin/users/${current.id}`, { method: 'PUT', body: changes });
      // The main admin's change of a member's phone waits, with the whole edit, for a second admin.
      if (sentForApproval(answer, `Changing ${current.fullName}'s phone number (and this edit)`)) return onClose();
      successToast('Member updated', `${answer.fullName}'s details are saved.`);
      onSaved(answer, false);
      onClose();
    } catch (error) {
      const fields = serverFieldErrors(error);
      form.setFields(Object.entries(fields).map(([name, message]) => ({ name, errors: [message] })));
      failureToast(current ? 'Update failed' : 'Creation failed', error);
    } finally {
      setSaving(false);
    }
  }

  async function upload(member: AdminMemberAnswer, kind: DocumentKind, file: File) {
    setUploading(kind);
    try {
      const answer = await apiUpload<AdminMemberAnswer>(`/api/admin/users/${member.id}/documents/${kind}`, file, file.name);
      setCurrent(answer);
      onSaved(answer, false);
      successToast('Document uploaded');
    } catch (error) {
      failureToast('Upload failed', error);
    } finally {
      setUploading(null);
    }
  }

  return (
    <Modal
      open={open}
      title={editing ? `Edit member: ${current.fullName}` : 'Add member'}
      okText={editing ? 'Save changes' : 'Create member'}
      onOk={() => void save()}
      confirmLoading={saving}
      onCancel={onClose}
      width={720}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" requiredMark={false}>
        {!editing ? (
          <>
            <Form.Item name="phone" label="Mobile number" rules={[newMemberRules.phone]}>
              <Input autoComplete="off" />
            </Form.Item>
            <Form.Item name="password" label="Password" rules={[newMemberRules.password]} extra="The member signs in with it; it is never shown again.">
              <Input.Password autoComplete="new-password" />
            </Form.Item>
            <Form.Item name="fullName" label="Full name" rules={[newMemberRules.fullName]}>
              <Input />
            </Form.Item>
            <Form.Item name="email" label="Email (optional)" rules={[newMemberRules.email]}>
              <Input />
            </Form.Item>
          </>
        ) : (
          <div className="admin-form-grid">
            {MEMBER_PROFILE_FIELDS.map((field) => {
              const locked = lockedReason(field.name, current, isMainAdmin);
              return (
                <Form.Item key={field.name} name={field.name} label={field.label} rules={[changedValueRule(field.schema, before[field.name])]} extra={locked ?? undefined}>
                  {field.name === 'monthlySalary' ? <InputNumber min={0} style={{ width: '100%' }} {...PESO_INPUT} /> : <Input disabled={locked !== null} />}
                </Form.Item>
              );
            })}
            <Form.Item name="status" label="Status" rules={[statusRule]}>
              <Select options={statusOptions(MEMBER_STATUSES)} />
            </Form.Item>
            <Form.Item name="creditScore" label="Credit score (300–850)" rules={[creditScoreRule]}>
              <InputNumber min={300} max={850} precision={0} style={{ width: '100%' }} />
            </Form.Item>
          </div>
        )}
      </Form>
      <Divider titlePlacement="start">Documents</Divider>
      <Space wrap>
        {DOCUMENTS.map((document) => {
          const url = current ? (current[document.url] as string | null) : null;
          return (
            <Space key={document.kind} direction="vertical" size={4}>
              <Typography.Text>
                {document.label}:{' '}
                {url ? (
                  <a href={url} target="_blank" rel="noreferrer">
                    view
                  </a>
                ) : (
                  'missing'
                )}
              </Typography.Text>
              {current ? (
                <Upload
                  accept="image/*"
                  showUploadList={false}
                  beforeUpload={(file) => {
                    void upload(current, document.kind, file);
                    return Upload.LIST_IGNORE;
                  }}
                >
                  <Button loading={uploading === document.kind}>Upload {document.label}</Button>
                </Upload>
              ) : (
                // Spec §5: documents belong to a saved member.
                <Button onClick={() => toast({ variant: 'destructive', title: 'Save member first', description: 'Documents can be added once the member is saved.' })}>Upload {document.label}</Button>
              )}
            </Space>
          );
        })}
      </Space>
    </Modal>
  );
}
