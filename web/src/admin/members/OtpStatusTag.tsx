import type { AdminOtpStatus } from '@honeylend/contracts';
import { Tag, Tooltip } from 'antd';
import { formatDateTime } from '../../shared/money';

const STATE_COLOURS = { sent: 'green', retrying: 'gold', failed: 'red' } as const;

/** Design §7: the OTP column says whether the last code reached the phone — never the code. */
export function OtpStatusTag({ otp }: { otp: AdminOtpStatus | null }) {
  if (!otp) return <Tag>No code sent</Tag>;
  const label = otp.state === 'sent' ? 'Delivered' : otp.state === 'retrying' ? 'Retrying' : 'Delivery failed';
  const details = [
    `To ${otp.sentTo}`,
    `Last attempt ${formatDateTime(otp.lastAttemptAt)}`,
    otp.attemptsLeft !== null && otp.expiresAt ? `Live code: ${otp.attemptsLeft} tries left until ${formatDateTime(otp.expiresAt)}` : 'No live code',
    otp.lastError ? `Last error: ${otp.lastError}` : null,
  ].filter(Boolean);
  return (
    <Tooltip title={details.join(' · ')}>
      <Tag color={STATE_COLOURS[otp.state]}>
        {label}
        {otp.attemptsLeft !== null ? ` · ${otp.attemptsLeft} left` : ''}
      </Tag>
    </Tooltip>
  );
}
