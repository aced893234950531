import type { AdminMemberAnswer } from '@honeylend/contracts';
import { Alert, Modal, Typography } from 'antd';
import { useState } from 'react';
import { attempt, successToast } from '../../console/adminApi';

/**
 * Design §7: staff never choose, see or know a member's password. The Reset action texts the
 * member a reset code (their own forgot-password flow, started for them) with a text saying staff
 * started it, and signs them out everywhere; the member chooses the new password with the code.
 */
export function PasswordResetDialog({ member, onClose, onReset }: { member: AdminMemberAnswer | null; onClose: () => void; onReset: (member: AdminMemberAnswer) => void }) {
  const [sending, setSending] = useState(false);

  async function reset() {
    if (!member) return;
    setSending(true);
    const answer = await attempt<{ user: AdminMemberAnswer; sentTo: string }>('Reset not started', `/api/admin/users/${member.id}/password-reset`, { method: 'POST' });
    setSending(false);
    if (!answer) return;
    successToast('Reset code texted', `A code was texted to ${answer.user.fullName} at ${answer.sentTo}. They are signed out everywhere and choose a new password with the code.`);
    onReset(answer.user);
    onClose();
  }

  return (
    <Modal open={member !== null} title="Reset password" okText="Text a reset code" onOk={() => void reset()} confirmLoading={sending} onCancel={onClose} destroyOnHidden>
      <Typography.Paragraph>
        For a member who lost access: <strong>{member?.fullName}</strong> ({member?.phone}) gets a reset code by text, and a text saying our staff started the reset. They choose their new password with the code.
      </Typography.Paragraph>
      <Alert type="info" showIcon title="You never choose or see the member's password. Every session of the member ends now." />
    </Modal>
  );
}
