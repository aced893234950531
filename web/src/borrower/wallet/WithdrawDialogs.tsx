import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { formatPesoAmount, formatTime } from '../../shared/money';
import { Dialog, DialogActions } from '../components/Dialog';
import { PesoField } from '../components/PesoField';
import { FormField } from '../components/FormField';
import { ShieldIcon } from '../components/icons';
import { useSignedInUser } from '../stores/session';
import { WALLET_MESSAGES, useWithdrawalFlow } from '../stores/wallet';
import { CODE_INPUT, codeDigits } from '../../shared/codeInput';

/** Only the last four digits are shown back to the member. */
function maskedAccount(accountNumber: string): string {
  return `••••${accountNumber.slice(-4)}`;
}

/**
 * Design §7 withdrawal: 'Withdraw Funds' (amount) → POST /api/withdrawals/otp → 'Enter OTP Code',
 * showing where the server texted the code → POST /api/withdrawals with the code and its challenge.
 */
export function WithdrawDialogs() {
  const step = useWithdrawalFlow((state) => state.step);
  return (
    <>
      {step === 'amount' && <AmountDialog />}
      {step === 'otp' && <OtpDialog />}
    </>
  );
}

function AmountDialog() {
  const user = useSignedInUser();
  const { busy, errors, requestCode, cancel, clearError } = useWithdrawalFlow();
  const [amount, setAmount] = useState('');
  const hasBank = Boolean(user.bankName && user.bankAccountNumber);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void requestCode(amount, user.balance);
  }

  return (
    <Dialog open title="Withdraw Funds" description={`Available: ${formatPesoAmount(user.balance)}`} onClose={cancel} closeButton>
      {hasBank ? (
        <form className="form" noValidate onSubmit={submit}>
          <PesoField
            label="Amount (₱)"
            hint="minimum ₱1,000"
            name="withdrawAmount"

            autoComplete="off"
            value={amount}
            onValueChange={(value) => {
              // Shown with its separators as typed; kept (and sent) as the bare amount.
              setAmount(value);
              clearError('amount');
            }}
            error={errors.amount}
          />
          <p className="notice">
            <ShieldIcon size={20} />
            <span>
              The money goes to your secured account only: {user.bankName} {maskedAccount(user.bankAccountNumber!)}. We text a one-time code to your phone to confirm it is you.
            </span>
          </p>
          <DialogActions>
            <button type="submit" className="button button--primary" disabled={busy} aria-busy={busy || undefined}>
              {busy ? 'Please wait...' : 'Request withdrawal'}
            </button>
            <button type="button" className="button button--secondary" onClick={cancel}>
              Cancel
            </button>
          </DialogActions>
        </form>
      ) : (
        <>
          <p className="notice notice--warn">{WALLET_MESSAGES.bankDetailsMissing}</p>
          <DialogActions>
            <Link className="button button--primary" to="/profile" onClick={cancel}>
              Go to Profile
            </Link>
            <button type="button" className="button button--secondary" onClick={cancel}>
              Cancel
            </button>
          </DialogActions>
        </>
      )}
    </Dialog>
  );
}

function OtpDialog() {
  const user = useSignedInUser();
  const { busy, errors, challenge, verify, resendCode, cancel, clearError, resendAllowedAt } = useWithdrawalFlow();
  const [otp, setOtp] = useState('');
  const waitSeconds = useSecondsUntil(resendAllowedAt);
  // A new code makes the old one useless: clear what was typed.
  useEffect(() => setOtp(''), [challenge?.challengeId]);
  if (!challenge) return null;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void verify(otp, { bankName: user.bankName ?? '', bankAccountNumber: user.bankAccountNumber ?? '' });
  }

  return (
    <Dialog
      open
      title="Enter OTP Code"
      description={
        <>
          We sent a 6-digit code to <strong data-testid="otp-sent-to">{challenge.sentTo}</strong> to confirm your withdrawal of {formatPesoAmount(challenge.amount)}. It expires at {formatTime(challenge.expiresAt)}.
        </>
      }
      onClose={cancel}
    >
      <form className="form" noValidate onSubmit={submit}>
        <FormField
          label="OTP code"
          name="otp"
          {...CODE_INPUT}
          className="otp-input"
          value={otp}
          onValueChange={(value) => {
            setOtp(codeDigits(value));
            clearError('otp');
          }}
          error={errors.otp}
        />
        <button type="button" className="link-button" onClick={() => void resendCode()} disabled={busy || waitSeconds > 0}>
          Send a new code
        </button>
        {waitSeconds > 0 && (
          <p className="muted" role="status">
            Too many codes were requested. You can ask for a new code in {formatCountdown(waitSeconds)}.
          </p>
        )}
        <DialogActions>
          <button type="submit" className="button button--primary" disabled={busy} aria-busy={busy || undefined}>
            {busy ? 'Please wait...' : 'Verify OTP'}
          </button>
          <button type="button" className="button button--secondary" onClick={cancel}>
            Cancel
          </button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

/** m:ss, as a countdown reads. */
function formatCountdown(seconds: number): string {
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/** Whole seconds left until `at` (epoch ms), ticking every second; 0 once it has passed or when there is none. */
function useSecondsUntil(at: number | null): number {
  const left = () => (at === null ? 0 : Math.max(0, Math.ceil((at - Date.now()) / 1000)));
  const [seconds, setSeconds] = useState(left);
  useEffect(() => {
    setSeconds(left());
    if (at === null) return;
    const timer = window.setInterval(() => {
      const next = left();
      setSeconds(next);
      if (next === 0) window.clearInterval(timer);
    }, 1000);
    return () => window.clearInterval(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `left` reads only `at`.
  }, [at]);
  return seconds;
}
