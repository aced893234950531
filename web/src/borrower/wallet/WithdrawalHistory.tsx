import { formatDateTime, formatPesoAmount } from '../../shared/money';
import { StatusBadge } from '../components/StatusBadge';
import { useWithdrawals } from '../stores/wallet';

/** The member's withdrawals, newest first; each changes in place as admins process it. */
export function WithdrawalHistory() {
  const withdrawals = useWithdrawals((state) => state.items);
  const status = useWithdrawals((state) => state.status);
  return (
    <section className="card" aria-labelledby="withdrawals-title" aria-busy={status === 'loading' || undefined}>
      <h2 id="withdrawals-title" className="card__title">
        Withdrawals
      </h2>
      {status === 'loading' ? (
        <p className="muted" role="status">
          Loading...
        </p>
      ) : status === 'error' ? (
        <p className="field__error">Failed to fetch withdrawals</p>
      ) : withdrawals.length === 0 ? (
        <p className="muted">No withdrawal requests yet.</p>
      ) : (
        <ul className="withdrawals">
          {withdrawals.map((withdrawal) => (
            <li key={withdrawal.id} className="withdrawals__item" data-testid="withdrawal">
              <div className="withdrawals__main">
                <span className="withdrawals__number">{withdrawal.withdrawalNumber}</span>
                <span className="withdrawals__amount">{formatPesoAmount(withdrawal.amount)}</span>
              </div>
              <div className="withdrawals__meta">
                <span>
                  {withdrawal.bankName} {withdrawal.bankAccountNumber} · {formatDateTime(withdrawal.createdAt)}
                </span>
                <StatusBadge status={withdrawal.status} />
              </div>
              {withdrawal.status === 'pending' && (
                <p className="withdrawals__note" data-testid="withdrawal-note">
                  Requested: pending review. Nothing has been sent yet.
                </p>
              )}
              {withdrawal.status === 'completed' && (
                <p className="withdrawals__note" data-testid="withdrawal-note">
                  Sent: on its way to your bank.
                  {withdrawal.payoutReference && <span data-testid="payout-reference"> Reference: {withdrawal.payoutReference}</span>}
                </p>
              )}
              {withdrawal.status === 'rejected' && <p className="withdrawals__note">Rejected: the amount was returned to your wallet.{withdrawal.reason ? ` ${withdrawal.reason}` : ''}</p>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
