import { useState } from 'react';
import { formatPesoAmount } from '../../shared/money';
import { EyeIcon, EyeOffIcon } from '../components/icons';
import { useSignedInUser } from '../stores/session';
import { useWithdrawalFlow } from '../stores/wallet';
import { WithdrawalHoldNotice, isWithdrawalHeld } from './WithdrawalHoldNotice';

const HIDDEN_BALANCE = '••••••';

/** Spec §2: the balance starts hidden as dots; the eye shows it. 'Withdraw money' starts the flow. */
export function BalanceCard() {
  const user = useSignedInUser();
  const [shown, setShown] = useState(false);
  const open = useWithdrawalFlow((state) => state.open);
  return (
    <section className="card balance-card" aria-labelledby="balance-title">
      <h2 id="balance-title" className="balance-card__label">
        Wallet balance
      </h2>
      <div className="balance-card__row">
        <p className="balance-card__amount" data-testid="wallet-balance" aria-live="polite">
          {shown ? formatPesoAmount(user.balance) : <span aria-label="Balance hidden">{HIDDEN_BALANCE}</span>}
        </p>
        <button type="button" className="icon-button balance-card__toggle" aria-label={shown ? 'Hide balance' : 'Show balance'} aria-pressed={shown} onClick={() => setShown((value) => !value)}>
          {shown ? <EyeOffIcon size={22} /> : <EyeIcon size={22} />}
        </button>
      </div>
      <WithdrawalHoldNotice hold={user.withdrawalHold} />
      <button type="button" className="button button--dark button--block" disabled={isWithdrawalHeld(user)} onClick={() => open(user.balance)}>
        Withdraw money
      </button>
    </section>
  );
}
