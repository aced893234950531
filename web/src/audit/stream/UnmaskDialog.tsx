import type { UnmaskAnswer } from '@honeylend/contracts';
import { Descriptions, Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import { formatDateTime } from '../../shared/money';
import { attempt } from '../../console/adminApi';

const REASON = 'Say why you need to see this member (at least 5 characters)';

/**
 * Unmasking one member (issue 16): it takes a reason, is recorded on the log as AuditorUnmasked,
 * and shows the member's personal data to this auditor for 30 minutes.
 */
export function UnmaskDialog({ memberId, open, onClose, onUnmasked }: { memberId: string; open: boolean; onClose: () => void; onUnmasked: () => void }) {
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [shown, setShown] = useState<UnmaskAnswer | null>(null);
  const valid = reason.trim().length >= 5;

  async function unmask() {
    setBusy(true);
    const answer = await attempt<UnmaskAnswer>('Unmask failed', '/api/audit/unmask', { method: 'POST', body: { memberId, reason: reason.trim() } });
    setBusy(false);
    if (!answer) return;
    setShown(answer);
    onUnmasked();
  }

  function close() {
    setReason('');
    setShown(null);
    onClose();
  }

  return (
    <Modal open={open} title="Unmask member" onCancel={close} onOk={shown ? close : () => void unmask()} okText={shown ? 'Done' : 'Unmask'} okButtonProps={{ disabled: !shown && !valid, loading: busy }} destroyOnHidden>
      {shown ? (
        <>
          <Typography.Paragraph>Shown to you until {formatDateTime(shown.unmaskedUntil)}; your reason is on the log.</Typography.Paragraph>
          <Descriptions size="small" column={1} bordered items={Object.entries(shown.member).map(([key, value]) => ({ key, label: key, children: value ?? '—' }))} />
        </>
      ) : (
        <>
          <Typography.Paragraph>The member's name, phone, address and account number are masked. Unmasking is recorded on the log with your reason.</Typography.Paragraph>
          <Input.TextArea aria-label="Reason" rows={3} maxLength={500} value={reason} onChange={(event) => setReason(event.target.value)} placeholder="Why do you need to see this member?" />
          {!valid && reason.length > 0 && <Typography.Text type="danger">{REASON}</Typography.Text>}
        </>
      )}
    </Modal>
  );
}
