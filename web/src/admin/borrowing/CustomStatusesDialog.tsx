import { Button, Input, List, Modal, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { attempt, successToast } from '../../console/adminApi';
import { ConfirmAction } from '../layout/ConfirmAction';

export interface LoanStatusesAnswer {
  statuses: string[];
  builtIn: string[];
  custom: string[];
}

/** Spec §4's admin-defined loan statuses (lowercased, no duplicates): review steps every admin shares. */
export function CustomStatusesDialog({ open, statuses, onClose, onChanged }: { open: boolean; statuses: LoanStatusesAnswer | null; onClose: () => void; onChanged: (answer: LoanStatusesAnswer) => void }) {
  const [name, setName] = useState('');
  const [saving, setSaving] = useState(false);

  async function add() {
    setSaving(true);
    const answer = await attempt<LoanStatusesAnswer>('Creation failed', '/api/admin/loan-statuses', { method: 'POST', body: { status: name } });
    setSaving(false);
    if (!answer) return;
    setName('');
    onChanged(answer);
    successToast('Status added');
  }

  async function remove(status: string) {
    const answer = await attempt<LoanStatusesAnswer>('Delete failed', `/api/admin/loan-statuses/${encodeURIComponent(status)}`, { method: 'DELETE' });
    if (answer) onChanged(answer);
  }

  return (
    <Modal open={open} title="Loan statuses" footer={null} onCancel={onClose}>
      <Typography.Paragraph type="secondary">
        Built in:{' '}
        {statuses?.builtIn.map((status) => (
          <Tag key={status}>{status}</Tag>
        ))}
      </Typography.Paragraph>
      <List
        size="small"
        bordered
        locale={{ emptyText: 'No custom statuses' }}
        dataSource={statuses?.custom ?? []}
        renderItem={(status) => (
          <List.Item
            actions={[
              <ConfirmAction key="remove" action="Remove" title="Remove status" description={`Are you sure you want to remove the status "${status}"?`} onConfirm={() => remove(status)} button={{ danger: true }} />,
            ]}
          >
            {status}
          </List.Item>
        )}
      />
      <Space.Compact style={{ width: '100%', marginTop: 16 }}>
        <Input aria-label="New status" placeholder="e.g. documents_review" value={name} onChange={(event) => setName(event.target.value)} onPressEnter={() => void add()} />
        <Button type="primary" loading={saving} onClick={() => void add()}>
          Add status
        </Button>
      </Space.Compact>
    </Modal>
  );
}
