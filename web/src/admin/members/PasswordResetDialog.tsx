import type { AdminMemberAnswer } from '@honeylend/contracts';
import { Alert, Input, Modal, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { toast } from '../../shared/toast/toastStore';
import { attempt, successToast } from '../../console/adminApi';

/**
 * Design §7: no password is ever shown. The admin types a new one once; it is sent, the member's
 * sessions end, and it is never displayed again (the field is cleared when the dialog closes).
 */
export function PasswordResetDialog({ member, onClose, onReset }: { member: AdminMemberAnswer | null; onClose: () => void; onReset: (member: AdminMemberAnswer) => void }) {
  const [password, setPassword] = useState('');
  const [saving, setSaving] = useState(false);

  useEffect(() => setPassword(''), [member]);

  async function reset() {
    if (!member) return;
    if (password === '') {
      toast({ variant: 'destructive', title: 'Error', description: 'Password cannot be empty' });
      return;
    }
    setSaving(true);
    const answer = await attempt<{ user: AdminMemberAnswer }>('Update failed', `/api/admin/users/${member.id}/password-reset`, { method: 'POST', body: { password } });
    setSaving(false);
    if (!answer) return;
    setPassword('');
    successToast('Password reset', `${answer.user.fullName} must sign in with the new password.`);
    onReset(answer.user);
    onClose();
  }

  return (
    <Modal open={member !== null} title="Reset password" okText="Reset password" onOk={() => void reset()} confirmLoading={saving} onCancel={onClose} destroyOnHidden>
      <Typography.Paragraph>
        Set a new password for <strong>{member?.fullName}</strong> ({member?.phone}). Give it to the member through a channel you trust.
      </Typography.Paragraph>
      <Alert type="info" showIcon title="The password is never shown again, and the member is signed out everywhere." style={{ marginBottom: 16 }} />
      <label className="admin-field">
        <span>New password</span>
        <Input.Password value={password} autoComplete="new-password" onChange={(event) => setPassword(event.target.value)} onPressEnter={() => void reset()} />
      </label>
    </Modal>
  );
}
