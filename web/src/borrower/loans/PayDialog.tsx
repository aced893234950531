import { useMemo, useState } from 'react';
import { parsePesoText, type LoanDetailAnswer, type RepaymentReceiptAnswer } from '@honeylend/contracts';
import { ApiError } from '../../shared/api';
import { formatDate, formatPesoAmount } from '../../shared/money';
import { toast } from '../../shared/toast/toastStore';
import { Dialog } from '../components/Dialog';
import { PesoField } from '../components/PesoField';
import { payAmounts, payFromWallet, previewAllocation, type PayChoice } from './loanServicing';

const CHOICES: { value: PayChoice; label: string }[] = [
  { value: 'next', label: 'Next instalment' },
  { value: 'overdue', label: 'All overdue' },
  { value: 'payoff', label: 'Pay off the loan' },
  { value: 'custom', label: 'Another amount' },
];

/**
 * Pay from the wallet: choose the next instalment, everything overdue, the payoff amount or another
 * amount; confirm against the allocation the loan's own fold computes (late charges, then interest,
 * then principal, oldest instalment first); then the receipt. One Idempotency-Key per payment: a
 * double tap, or a retry of the same amount after an answer that never came, reuses it, and the
 * server answers the receipt it kept instead of paying again. A new key is made only once a payment
 * is settled (paid, or refused by the server) or the amount changes.
 */
export function PayDialog({ loan, balance, open, onClose, onPaid }: { loan: LoanDetailAnswer; balance: number; open: boolean; onClose: () => void; onPaid: () => void }) {
  const amounts = useMemo(() => payAmounts(loan), [loan]);
  const [choice, setChoice] = useState<PayChoice>('next');
  const [custom, setCustom] = useState('');
  const [step, setStep] = useState<'choose' | 'confirm' | 'paid'>('choose');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [receipt, setReceipt] = useState<RepaymentReceiptAnswer | null>(null);
  /** The payment in flight: its amount and the Idempotency-Key every retry of it reuses. */
  const [attempt, setAttempt] = useState<{ amount: number; key: string } | null>(null);

  // Typed as people type pesos: 11000, 11,000 or ₱11,000.
  const amount = choice === 'custom' ? parsePesoText(custom) : amounts[choice];
  const preview = loan.account && amount !== null && amount > 0 ? previewAllocation(loan.account, loan.businessDate, amount) : null;

  const close = () => {
    setStep('choose');
    setError(undefined);
    setReceipt(null);
    onClose();
  };

  const review = () => {
    if (amount === null || amount <= 0) return setError('Enter an amount of at least ₱0.01');
    if (amounts.payoff !== null && amount > amounts.payoff) return setError(`The most you can pay is the payoff amount, ${formatPesoAmount(amounts.payoff)}.`);
    if (amount > balance) return setError(`Your wallet holds ${formatPesoAmount(balance)}; a payment from it cannot be more.`);
    setError(undefined);
    setStep('confirm');
  };

  const pay = async () => {
    if (amount === null) return;
    const current = attempt && attempt.amount === amount ? attempt : { amount, key: crypto.randomUUID() };
    setAttempt(current);
    setBusy(true);
    setError(undefined);
    try {
      setReceipt(await payWithAnswer(loan.id, current));
      setAttempt(null);
      setStep('paid');
      onPaid();
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 0) {
        // No answer: the payment may have been taken. Keep the key, so paying again can only ever
        // fetch the receipt the server kept or pay this once; say what is known, not that it failed.
        const message = `No internet — we could not confirm the payment of ${formatPesoAmount(amount)}. Pay again when you are back online: it will not be taken twice.`;
        setError(message);
        toast({ title: 'Payment not confirmed', description: message, variant: 'destructive' });
        return;
      }
      // The server answered and refused it: nothing was paid, and a new attempt is a new payment.
      const message = failure instanceof ApiError ? failure.message : 'Please try again';
      setError(message);
      toast({ title: 'Payment not made', description: message, variant: 'destructive' });
      setAttempt(null);
      setStep('choose');
    } finally {
      setBusy(false);
    }
  };

  if (step === 'paid' && receipt) {
    return (
      <Dialog
        open={open}
        title="Payment received"
        description={`Receipt ${receipt.receiptNumber}`}
        onClose={close}
        actions={
          <button type="button" className="button button--primary" onClick={close}>
            Done
          </button>
        }
      >
        <p className="message" data-testid="payment-receipt">
          {formatPesoAmount(receipt.amount)} paid from your wallet on {formatDate(receipt.valueDate)}.
        </p>
        <AllocationList allocation={receipt.allocation.map((line) => ({ instalment: line.instalment, penalty: line.penalty, interest: line.interest, principal: line.principal }))} />
      </Dialog>
    );
  }

  if (step === 'confirm' && amount !== null && preview) {
    return (
      <Dialog
        open={open}
        title="Confirm payment"
        description={`${formatPesoAmount(amount)} from your wallet to loan ${loan.loanNumber}`}
        onClose={close}
        actions={
          <>
            <button type="button" className="button button--secondary" onClick={() => setStep('choose')} disabled={busy}>
              Back
            </button>
            <button type="button" className="button button--primary" onClick={() => void pay()} disabled={busy}>
              {busy ? 'Please wait...' : `Pay ${formatPesoAmount(amount)}`}
            </button>
          </>
        }
      >
        <p className="muted">It will be applied like this{preview.paysOff ? ', and it closes your loan' : ''}:</p>
        <AllocationList
          allocation={preview.allocation.map((line) => ({ instalment: line.instalment, penalty: line.penaltyCentavos / 100, interest: line.interestCentavos / 100, principal: line.principalCentavos / 100 }))}
        />
        {error && (
          <p className="field__error" role="alert">
            {error}
          </p>
        )}
      </Dialog>
    );
  }

  return (
    <Dialog
      open={open}
      title="Pay from wallet"
      description={`Wallet balance ${formatPesoAmount(balance)}`}
      onClose={close}
      actions={
        <>
          <button type="button" className="button button--secondary" onClick={close}>
            Cancel
          </button>
          <button type="button" className="button button--primary" onClick={review}>
            Review payment
          </button>
        </>
      }
    >
      <fieldset className="pay-choices">
        <legend className="field__label">What to pay</legend>
        {CHOICES.map(({ value, label }) => {
          const offered = value === 'custom' ? null : amounts[value];
          const disabled = value !== 'custom' && offered === null;
          return (
            <label key={value} className={`pay-choice${disabled ? ' pay-choice--disabled' : ''}`}>
              <input type="radio" name="pay-choice" value={value} checked={choice === value} disabled={disabled} onChange={() => setChoice(value)} />
              <span>{label}</span>
              {offered !== null && <span className="pay-choice__amount">{formatPesoAmount(offered)}</span>}
            </label>
          );
        })}
      </fieldset>
      {/* eslint-disable-next-line jsx-a11y/no-autofocus -- choosing "custom" is asking to type the amount: focus goes to it */}
      {choice === 'custom' && <PesoField label="Amount (₱)" value={custom} onValueChange={setCustom} autoFocus />}
      {error && (
        <p className="field__error" role="alert">
          {error}
        </p>
      )}
    </Dialog>
  );
}

/**
 * Pays, and when the answer is lost on the way back, looks once more before saying anything: the
 * same request with the same key, which the server answers with the receipt it kept when the
 * payment was taken (and takes it, once, when it was not).
 */
async function payWithAnswer(loanId: string, attempt: { amount: number; key: string }): Promise<RepaymentReceiptAnswer> {
  try {
    return await payFromWallet(loanId, attempt.amount, attempt.key);
  } catch (failure) {
    if (!(failure instanceof ApiError && failure.status === 0)) throw failure;
    return payFromWallet(loanId, attempt.amount, attempt.key);
  }
}

function AllocationList({ allocation }: { allocation: { instalment: number; penalty: number; interest: number; principal: number }[] }) {
  return (
    <ul className="allocation" aria-label="Allocation">
      {allocation.map((line) => (
        <li key={line.instalment} data-testid={`allocation-${line.instalment}`}>
          <strong>Instalment {line.instalment}</strong>
          <span>
            {[
              line.penalty > 0 ? `late charge ${formatPesoAmount(line.penalty)}` : null,
              line.interest > 0 ? `interest ${formatPesoAmount(line.interest)}` : null,
              line.principal > 0 ? `principal ${formatPesoAmount(line.principal)}` : null,
            ]
              .filter(Boolean)
              .join(' · ')}
          </span>
        </li>
      ))}
    </ul>
  );
}
