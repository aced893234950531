import type { AdminWithdrawalAnswer } from '@honeylend/contracts';
import { Button, Descriptions, Input, Modal, Space, Tag } from 'antd';
import { useEffect, useState } from 'react';
import { formatDateTime, formatPesoAmount, statusLabel } from '../../shared/money';
import { attempt, sentForApproval, successToast } from '../../console/adminApi';
import { ConfirmAction } from '../layout/ConfirmAction';
import { WITHDRAWAL_STATUS_COLOURS } from './withdrawalStatus';

/** Spec §2/§4 detail dialog: a pending withdrawal is completed (paid out) or rejected (the amount is refunded). */
export function WithdrawalDetailDialog({ withdrawal, onClose, onDecided }: { withdrawal: AdminWithdrawalAnswer | null; onClose: () => void; onDecided: (withdrawal: AdminWithdrawalAnswer) => void }) {
  const [reason, setReason] = useState('');
  const [payoutReference, setPayoutReference] = useState('');
  const [busy, setBusy] = useState<'completed' | 'rejected' | null>(null);

  useEffect(() => {
    setReason('');
    setPayoutReference('');
  }, [withdrawal?.id]);

  async function decide(status: 'completed' | 'rejected') {
    if (!withdrawal) return;
    setBusy(status);
    // No payout time from this browser's clock: the server dates it now on the business clock, as it dated the request.
    const body = status === 'completed' ? { status, payoutReference: payoutReference.trim() || undefined } : { status, reason: reason.trim() || undefined };
    const answer = await attempt<AdminWithdrawalAnswer>('Update failed', `/api/admin/withdrawals/${withdrawal.id}`, { method: 'PUT', body });
    setBusy(null);
    if (!answer) return;
    // From the threshold up a completion waits for a second admin: the withdrawal stays pending.
    if (sentForApproval(answer, `Paying out ${withdrawal.withdrawalNumber}`)) return onClose();
    successToast(
      status === 'completed' ? 'Withdrawal completed' : 'Withdrawal rejected',
      status === 'completed' ? `${answer.withdrawalNumber} was paid out.` : `${answer.withdrawalNumber} was rejected and ${formatPesoAmount(answer.amount)} refunded to the wallet.`,
    );
    onDecided(answer);
    onClose();
  }

  const pending = withdrawal?.status === 'pending';
  return (
    <Modal
      open={withdrawal !== null}
      title={`Withdrawal ${withdrawal?.withdrawalNumber ?? ''}`}
      onCancel={onClose}
      width={640}
      footer={
        pending ? (
          <Space>
            <Button onClick={onClose}>Close</Button>
            <ConfirmAction
              action="Reject"
              title="Reject withdrawal"
              description={`Are you sure you want to reject this withdrawal? ${withdrawal ? formatPesoAmount(withdrawal.amount) : ''} will be refunded to the member's wallet.`}
              onConfirm={() => decide('rejected')}
              destructive
              button={{ size: 'middle', loading: busy === 'rejected' }}
            />
            <ConfirmAction
              action="Complete"
              title="Complete withdrawal"
              description={`Are you sure you have sent ${withdrawal ? formatPesoAmount(withdrawal.amount) : ''} to the member's bank account?`}
              onConfirm={() => decide('completed')}
              button={{ size: 'middle', type: 'primary', loading: busy === 'completed' }}
            />
          </Space>
        ) : (
          <Button onClick={onClose}>Close</Button>
        )
      }
    >
      {withdrawal && (
        <>
          <Descriptions column={1} bordered size="small">
            <Descriptions.Item label="Member">{withdrawal.member ? `${withdrawal.member.fullName} (${withdrawal.member.phone})` : 'Closed account'}</Descriptions.Item>
            <Descriptions.Item label="Amount">{formatPesoAmount(withdrawal.amount)}</Descriptions.Item>
            <Descriptions.Item label="Bank">{withdrawal.bankName}</Descriptions.Item>
            {/* Money goes only to the member's own account: the transfer's recipient name must be this one. */}
            <Descriptions.Item label="Account holder">{withdrawal.member ? withdrawal.member.fullName : '—'}</Descriptions.Item>
            <Descriptions.Item label="Account number">{withdrawal.bankAccountNumber}</Descriptions.Item>
            <Descriptions.Item label="Status">
              <Tag color={WITHDRAWAL_STATUS_COLOURS[withdrawal.status]}>{statusLabel(withdrawal.status)}</Tag>
            </Descriptions.Item>
            <Descriptions.Item label="Requested">{formatDateTime(withdrawal.createdAt)}</Descriptions.Item>
            <Descriptions.Item label="Processed">{withdrawal.processedAt ? formatDateTime(withdrawal.processedAt) : '—'}</Descriptions.Item>
            {withdrawal.reason && <Descriptions.Item label="Reason">{withdrawal.reason}</Descriptions.Item>}
            {withdrawal.payoutReference && <Descriptions.Item label="Payout reference">{withdrawal.payoutReference}</Descriptions.Item>}
          </Descriptions>
          {pending && (
            <label className="admin-field" style={{ marginTop: 16 }}>
              <span>Payout reference (GCash, InstaPay or bank; sent to the member on completion)</span>
              <Input maxLength={64} value={payoutReference} onChange={(event) => setPayoutReference(event.target.value)} />
            </label>
          )}
          {pending && (
            <label className="admin-field" style={{ marginTop: 16 }}>
              <span>Reason for a rejection (optional, sent to the member)</span>
              <Input.TextArea rows={2} maxLength={500} value={reason} onChange={(event) => setReason(event.target.value)} />
            </label>
          )}
        </>
      )}
    </Modal>
  );
}
