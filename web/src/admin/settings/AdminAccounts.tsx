import type { AdminAccountEntry } from '@honeylend/contracts';
import { Button, Card, Form, Input, Modal, Select, Space, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { apiRequest } from '../../shared/api';
import { toast } from '../../shared/toast/toastStore';
import { formatDate } from '../../shared/money';
import { attempt, failureToast, successToast } from '../../console/adminApi';
import { ConfirmAction } from '../layout/ConfirmAction';
import { useIsMainAdmin } from '../layout/staffContext';
import { ListToolbar } from '../lists/ListToolbar';
import { useRefetchOn } from '../live/useRefetchOn';

const EMAIL_AND_PASSWORD = 'Please fill in both email and password';

interface NewAdmin {
  email: string;
  password: string;
  fullName: string;
  phone: string;
  /** An auditor reads everything (members' personal data masked) and changes nothing (issue 16). */
  role: 'admin' | 'auditor';
}

const EMPTY_DRAFT: NewAdmin = { email: '', password: '', fullName: '', phone: '', role: 'admin' };

/** Spec §2 settings: the admins with search; the main admin adds, edits and deletes; others see 'Main Admin' masked, with no actions. */
export function AdminAccounts() {
  const isMainAdmin = useIsMainAdmin();
  const [search, setSearch] = useState('');
  const [admins, setAdmins] = useState<AdminAccountEntry[]>([]);
  const [loading, setLoading] = useState(true);
  const [draft, setDraft] = useState<NewAdmin>(EMPTY_DRAFT);
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<AdminAccountEntry | null>(null);

  const [generation, setGeneration] = useState(0);
  const refetch = useCallback(() => setGeneration((value) => value + 1), []);

  useEffect(() => {
    const controller = new AbortController();
    const query = search.trim();
    setLoading(true);
    apiRequest<AdminAccountEntry[]>(`/api/admin/all-users${query ? `?search=${encodeURIComponent(query)}` : ''}`, { signal: controller.signal, cache: 'no-store' })
      .then(setAdmins)
      .catch((error: unknown) => {
        if (!controller.signal.aborted) failureToast('Failed to fetch admin users', error);
      })
      .finally(() => {
        if (!controller.signal.aborted) setLoading(false);
      });
    // A newer read (another search, a push) replaces this one, so an older answer never lands last.
    return () => controller.abort();
  }, [search, generation]);

  // An admin added, edited or deleted by another main admin's session, or by this one in another tab.
  // The list is read again rather than patched: its rows carry what this viewer may do, which the push does not.
  useRefetchOn(['admin.updated', 'admin.deleted', 'resync'], refetch);

  async function create() {
    if (!draft.email.trim() || !draft.password) {
      toast({ variant: 'destructive', title: 'Missing Information', description: EMAIL_AND_PASSWORD });
      return;
    }
    setCreating(true);
    const answer = await attempt<AdminAccountEntry>('Creation Failed', '/api/admin/create-admin', {
      method: 'POST',
      body: { email: draft.email.trim(), password: draft.password, fullName: draft.fullName.trim() || undefined, phone: draft.phone.trim() || undefined, role: draft.role },
      headers: { 'Idempotency-Key': crypto.randomUUID() },
    });
    setCreating(false);
    if (!answer) return;
    setDraft(EMPTY_DRAFT);
    successToast(answer.role === 'auditor' ? 'Auditor created' : 'Admin created', `${answer.username} can now sign in.`);
    refetch();
  }

  async function remove(admin: AdminAccountEntry) {
    const answer = await attempt<{ success: true }>('Delete Failed', `/api/admin/users/${admin.id}`, { method: 'DELETE' });
    if (!answer) return;
    successToast('Admin deleted', `${admin.username} can no longer sign in.`);
    refetch();
  }

  const columns: TableColumnsType<AdminAccountEntry> = [
    {
      title: 'Admin',
      key: 'admin',
      render: (_, admin) => (
        <Space direction="vertical" size={0}>
          <Typography.Text strong>
            {admin.fullName} {admin.label && admin.label !== admin.fullName && <Tag color="gold">{admin.label}</Tag>}
            {admin.role === 'auditor' && <Tag color="blue">Auditor</Tag>}
          </Typography.Text>
          <Typography.Text type="secondary">{admin.username}</Typography.Text>
        </Space>
      ),
    },
    { title: 'Email', key: 'email', render: (_, admin) => admin.email ?? '—' },
    { title: 'Phone', key: 'phone', render: (_, admin) => admin.phone ?? '—' },
    // Design §7: no admin's password is ever shown, the main admin's least of all.
    { title: 'Password', key: 'password', render: () => '••••' },
    { title: 'Created', key: 'createdAt', render: (_, admin) => formatDate(admin.createdAt) },
    {
      title: 'Actions',
      key: 'actions',
      render: (_, admin) =>
        !admin.canEdit && !admin.canDelete ? (
          <Typography.Text type="secondary">—</Typography.Text>
        ) : (
          <Space size={4}>
            {admin.canEdit && (
              <Button size="small" onClick={() => setEditing(admin)}>
                Edit
              </Button>
            )}
            {admin.canDelete && <ConfirmAction action="Delete" title="Delete admin" description={`Are you sure you want to delete the admin account ${admin.username}?`} onConfirm={() => remove(admin)} destructive />}
          </Space>
        ),
    },
  ];

  return (
    <Card title="Admin accounts">
      <ListToolbar label="Search admins" placeholder="Search admins" width={320} onSearch={setSearch} />
      {isMainAdmin && (
        <form
          className="admin-toolbar"
          aria-label="Add admin"
          onSubmit={(event) => {
            event.preventDefault();
            void create();
          }}
        >
          <Input aria-label="Email" placeholder="Email" value={draft.email} onChange={(event) => setDraft({ ...draft, email: event.target.value })} style={{ width: 220 }} />
          <Input.Password
            aria-label="Password"
            placeholder="Password"
            autoComplete="new-password"
            value={draft.password}
            onChange={(event) => setDraft({ ...draft, password: event.target.value })}
            style={{ width: 200 }}
          />
          <Input aria-label="Full name" placeholder="Full name (optional)" value={draft.fullName} onChange={(event) => setDraft({ ...draft, fullName: event.target.value })} style={{ width: 200 }} />
          <Input aria-label="Phone" placeholder="Phone (optional)" value={draft.phone} onChange={(event) => setDraft({ ...draft, phone: event.target.value })} style={{ width: 170 }} />
          <Select
            aria-label="Role"
            value={draft.role}
            onChange={(role) => setDraft({ ...draft, role })}
            options={[
              { value: 'admin', label: 'Admin' },
              { value: 'auditor', label: 'Auditor (read-only)' },
            ]}
            style={{ width: 170 }}
          />
          <Button type="primary" htmlType="submit" loading={creating}>
            {draft.role === 'auditor' ? 'Add auditor' : 'Add admin'}
          </Button>
        </form>
      )}
      <Table<AdminAccountEntry> rowKey="id" columns={columns} dataSource={admins} loading={loading} locale={{ emptyText: 'No admin accounts found' }} pagination={false} />
      <EditAdminDialog admin={editing} onClose={() => setEditing(null)} onSaved={refetch} />
    </Card>
  );
}

interface AdminEdit {
  email: string;
  password: string;
  fullName: string;
  phone: string;
}

/** PATCH /api/admin/users/:id: only what was changed is sent; a new password is typed once and never shown. */
function EditAdminDialog({ admin, onClose, onSaved }: { admin: AdminAccountEntry | null; onClose: () => void; onSaved: () => void }) {
  const [form] = Form.useForm<AdminEdit>();
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (admin) form.setFieldsValue({ email: admin.email ?? '', password: '', fullName: admin.fullName, phone: admin.phone ?? '' });
  }, [admin, form]);

  async function save() {
    if (!admin) return;
    const values = form.getFieldsValue();
    const body: Record<string, string> = {};
    if (values.email.trim() && values.email.trim() !== (admin.email ?? '')) body.email = values.email.trim();
    if (values.password) body.password = values.password;
    if (values.fullName.trim() && values.fullName.trim() !== admin.fullName) body.fullName = values.fullName.trim();
    if (values.phone.trim() !== (admin.phone ?? '') && values.phone.trim()) body.phone = values.phone.trim();
    if (Object.keys(body).length === 0) {
      onClose();
      return;
    }
    setSaving(true);
    try {
      await apiRequest(`/api/admin/users/${admin.id}`, { method: 'PATCH', body });
      successToast('Admin updated', `${admin.username}'s account is saved.`);
      onSaved();
      onClose();
    } catch (error) {
      toast({ variant: 'destructive', title: 'Error', description: `Failed to update admin account: ${error instanceof Error ? error.message : ''}` });
    } finally {
      setSaving(false);
    }
  }

  return (
    <Modal open={admin !== null} title={`Edit admin: ${admin?.username ?? ''}`} okText="Save changes" onOk={() => void save()} confirmLoading={saving} onCancel={onClose} destroyOnHidden>
      <Form form={form} layout="vertical">
        <Form.Item name="email" label="Email">
          <Input />
        </Form.Item>
        <Form.Item name="password" label="New password" extra="Leave empty to keep the current one. It is never shown again.">
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item name="fullName" label="Full name">
          <Input />
        </Form.Item>
        <Form.Item name="phone" label="Phone">
          <Input />
        </Form.Item>
      </Form>
    </Modal>
  );
}
