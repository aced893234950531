import type { UserAnswer } from '@honeylend/contracts';
import { formatDateTime } from '../../shared/money';

/**
 * Why new withdrawals are paused and until when (design §7: after a bank-account or phone change,
 * or too many wrong codes). The server drops a hold once it ends; a hold that ends while the page is
 * open is no longer shown.
 */
export function WithdrawalHoldNotice({ hold, now = new Date() }: { hold: UserAnswer['withdrawalHold']; now?: Date }) {
  if (!hold || Date.parse(hold.until) <= now.getTime()) return null;
  return (
    <div className="notice notice--warn" role="status" data-testid="withdrawal-hold">
      <div>
        <strong>Withdrawals paused until {formatDateTime(hold.until)}</strong>
        <p>{hold.message}</p>
      </div>
    </div>
  );
}

export function isWithdrawalHeld(user: Pick<UserAnswer, 'withdrawalHold'>, now = new Date()): boolean {
  return Boolean(user.withdrawalHold && Date.parse(user.withdrawalHold.until) > now.getTime());
}
