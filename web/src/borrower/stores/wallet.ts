import { OTP_CODE_LENGTH, parsePesoText, type WithdrawalAnswer } from '@honeylend/contracts';
import { create } from 'zustand';
import { ApiError, apiRequest } from '../../shared/api';
import { formatPesoAmount } from '../../shared/money';
import { toast } from '../../shared/toast/toastStore';
import { createVersionedListStore } from './versionedListStore';

/** The member's withdrawals (GET /api/withdrawals), newest first, kept current by `withdrawal.updated`. */
export const useWithdrawals = createVersionedListStore<WithdrawalAnswer>('/api/withdrawals');

/** Spec §5/§9 withdrawal rules and wording. */
export const MINIMUM_WITHDRAWAL_PESOS = 1000;
export const WALLET_MESSAGES = {
  minimum: 'Minimum withdrawal amount is ₱1,000',
  otpLength: 'OTP must be exactly 6 digits',
  insufficientTitle: 'Insufficient funds',
  insufficientDescription: 'Unavailable to request a withdrawal',
  failedTitle: 'Withdrawal not requested',
  codeNotSentTitle: 'Code not sent',
  offlineTitle: 'No internet — nothing was sent',
  offlineDescription: 'Check your connection and try again.',
  retry: 'Please try again',
  unconfirmed: 'We could not confirm your withdrawal: the connection dropped before the answer came. Tap Verify OTP again when you are back online — it is the same request and can never be made twice.',
  /** Design §7: a request is only requested — "on its way" is said once an admin completes it. */
  receivedTitle: 'Withdrawal requested',
  bankDetailsMissing: 'Add your bank name and account number in your profile before withdrawing.',
} as const;

/** What POST /api/withdrawals/otp answered: where the code went, until when, and the challenge it belongs to. */
export interface OtpChallenge {
  amount: number;
  sentTo: string;
  expiresAt: string;
  challengeId: string;
}

export type WithdrawalStep = 'closed' | 'amount' | 'otp';

/** One confirm attempt: the code it sent and the Idempotency-Key a retry of it reuses. */
interface ConfirmAttempt {
  challengeId: string;
  otp: string;
  idempotencyKey: string;
}

interface WithdrawalFlowState {
  step: WithdrawalStep;
  challenge: OtpChallenge | null;
  busy: boolean;
  errors: { amount?: string; otp?: string };
  /** The confirm attempt whose answer has not been seen yet (reused by a retry), or null. */
  attempt: ConfirmAttempt | null;
  /** When the server allows another code (epoch ms) after refusing one for the resend limit, or null. */
  resendAllowedAt: number | null;
  /** 'Withdraw money': refused with the spec's toast when there is nothing to withdraw. */
  open: (balance: number) => void;
  /** 'Request withdrawal': checks the amount, then asks the server to text a code for it. */
  requestCode: (amountText: string, balance: number) => Promise<void>;
  /** Sends a new code for the same amount. */
  resendCode: () => Promise<void>;
  /** 'Verify OTP': the request itself, with the code and its challenge. */
  verify: (otp: string, bank: { bankName: string; bankAccountNumber: string }) => Promise<WithdrawalAnswer | null>;
  /** Cancel: the pending request is forgotten (spec §4). */
  cancel: () => void;
  clearError: (field: 'amount' | 'otp') => void;
}

/** A peso amount as typed: digits with at most two decimals, or null. */
export function parsePesoAmount(text: string): number | null {
  return parsePesoText(text);
}

function insufficientFunds(): void {
  toast({ variant: 'destructive', title: WALLET_MESSAGES.insufficientTitle, description: WALLET_MESSAGES.insufficientDescription });
}

function codeOf(error: unknown): string | null {
  if (!(error instanceof ApiError) || typeof error.data !== 'object' || error.data === null) return null;
  const code = (error.data as { code?: unknown }).code;
  return typeof code === 'string' ? code : null;
}

/** The server's `details.retryAfterSeconds` of a 429, if it sent one. */
function retryAfterSecondsOf(error: unknown): number | null {
  if (!(error instanceof ApiError) || typeof error.data !== 'object' || error.data === null) return null;
  const details = (error.data as { details?: { retryAfterSeconds?: unknown } }).details;
  return typeof details?.retryAfterSeconds === 'number' ? details.retryAfterSeconds : null;
}

/** Says what happened and whether anything was sent; `title` names the step that did not happen. */
function failed(error: unknown, title: string): void {
  if (error instanceof ApiError && error.accountSuspended) return;
  if (codeOf(error) === 'INSUFFICIENT_FUNDS') return insufficientFunds();
  if (error instanceof ApiError && error.status === 0) {
    toast({ variant: 'destructive', title: WALLET_MESSAGES.offlineTitle, description: WALLET_MESSAGES.offlineDescription });
    return;
  }
  toast({ variant: 'destructive', title, description: (error instanceof Error && error.message) || WALLET_MESSAGES.retry });
}

/** What a just-requested withdrawal is: pending review, nothing sent yet (design §7). */
export function pendingReviewText(withdrawal: { withdrawalNumber: string | null; amount: number }): string {
  const what = `${withdrawal.withdrawalNumber ? `${withdrawal.withdrawalNumber}: ` : 'Your withdrawal of '}${formatPesoAmount(withdrawal.amount)}`;
  return `${what} is pending review. Nothing has been sent yet; we will tell you when it is on its way to your bank.`;
}

/** A fresh Idempotency-Key for one confirm attempt. */
function newIdempotencyKey(): string {
  return `withdrawal-${crypto.randomUUID()}`;
}

export const useWithdrawalFlow = create<WithdrawalFlowState>()((set, get) => {
  async function sendCode(amount: number): Promise<void> {
    set({ busy: true });
    try {
      const answer = await apiRequest<Omit<OtpChallenge, 'amount'>>('/api/withdrawals/otp', { method: 'POST', body: { amount } });
      set({ step: 'otp', challenge: { amount, ...answer }, busy: false, errors: {}, attempt: null, resendAllowedAt: null });
    } catch (error) {
      set({ busy: false });
      const retryAfterSeconds = retryAfterSecondsOf(error);
      if (error instanceof ApiError && error.status === 429 && retryAfterSeconds !== null) {
        // The dialog counts down to the next code instead of a toast that is gone in seconds.
        set({ resendAllowedAt: Date.now() + retryAfterSeconds * 1000 });
        if (get().step === 'otp') return;
      }
      if (error instanceof ApiError && error.status === 400 && codeOf(error) !== 'INSUFFICIENT_FUNDS') {
        set({ errors: { amount: error.message } });
      }
      failed(error, WALLET_MESSAGES.codeNotSentTitle);
    }
  }

  /**
   * The confirm's answer was lost (status 0): the request may have reached the server. The list is
   * read again; a withdrawal of this amount that was not there before is this one.
   */
  async function settleLostAnswer(challenge: OtpChallenge, knownIds: Set<string>): Promise<WithdrawalAnswer | null> {
    const withdrawals = useWithdrawals.getState();
    await withdrawals.fetch();
    const after = useWithdrawals.getState();
    if (after.error !== null) return null;
    return after.items.find((item) => !knownIds.has(item.id) && item.amount === challenge.amount) ?? null;
  }

  function closeWithReceived(withdrawal: WithdrawalAnswer): void {
    set({ step: 'closed', challenge: null, busy: false, errors: {}, attempt: null });
    toast({ title: WALLET_MESSAGES.receivedTitle, description: pendingReviewText(withdrawal) });
  }

  return {
    step: 'closed',
    challenge: null,
    busy: false,
    errors: {},
    attempt: null,
    resendAllowedAt: null,

    open(balance) {
      if (!(balance > 0)) {
        insufficientFunds();
        return;
      }
      set({ step: 'amount', challenge: null, errors: {}, busy: false, attempt: null });
    },

    async requestCode(amountText, balance) {
      if (get().busy) return;
      const amount = parsePesoAmount(amountText);
      if (amount === null || amount < MINIMUM_WITHDRAWAL_PESOS) {
        set({ errors: { amount: WALLET_MESSAGES.minimum } });
        return;
      }
      if (!(balance > 0) || amount > balance) {
        // Said where the amount is typed, with the most that can go out (issue 22, item 15).
        set({ errors: { amount: `You can withdraw up to ${formatPesoAmount(balance)}` } });
        insufficientFunds();
        return;
      }
      await sendCode(amount);
    },

    async resendCode() {
      const challenge = get().challenge;
      const allowedAt = get().resendAllowedAt;
      if (!challenge || get().busy || (allowedAt !== null && allowedAt > Date.now())) return;
      await sendCode(challenge.amount);
      if (get().challenge !== challenge) {
        toast({ title: 'Code sent', description: `A new code was sent to ${get().challenge?.sentTo ?? 'your phone'}.` });
      }
    },

    async verify(otp, bank) {
      const challenge = get().challenge;
      if (!challenge || get().busy) return null;
      const code = otp.trim();
      if (!new RegExp(`^\\d{${OTP_CODE_LENGTH}}$`).test(code)) {
        set({ errors: { otp: WALLET_MESSAGES.otpLength } });
        return null;
      }
      // A retry of the same code reuses its attempt's key, so the server answers what it answered
      // the first time instead of running (or refusing) the request again.
      const held = get().attempt;
      const attempt = held && held.challengeId === challenge.challengeId && held.otp === code ? held : { challengeId: challenge.challengeId, otp: code, idempotencyKey: newIdempotencyKey() };
      const knownIds = new Set(useWithdrawals.getState().items.map((item) => item.id));
      set({ busy: true, attempt });
      try {
        const withdrawal = await apiRequest<WithdrawalAnswer>('/api/withdrawals', {
          method: 'POST',
          headers: { 'Idempotency-Key': attempt.idempotencyKey },
          body: { amount: challenge.amount, bankName: bank.bankName, bankAccountNumber: bank.bankAccountNumber, otp: code, challengeId: challenge.challengeId },
        });
        if (withdrawal && typeof withdrawal.version === 'number') useWithdrawals.getState().apply(withdrawal);
        set({ step: 'closed', challenge: null, busy: false, errors: {}, attempt: null });
        toast({ title: WALLET_MESSAGES.receivedTitle, description: pendingReviewText(withdrawal ?? { withdrawalNumber: null, amount: challenge.amount }) });
        void useWithdrawals.getState().fetch();
        return withdrawal;
      } catch (error) {
        if (error instanceof ApiError && error.status === 0) {
          const found = await settleLostAnswer(challenge, knownIds);
          if (found) {
            closeWithReceived(found);
            return found;
          }
          set({ busy: false, errors: { otp: WALLET_MESSAGES.unconfirmed } });
          return null;
        }
        set({ busy: false, attempt: null });
        const code = codeOf(error);
        if (code?.startsWith('OTP_') && error instanceof Error) {
          // The code is wrong, spent or expired: the field says so, nothing was sent.
          set({ errors: { otp: error.message } });
          if (code === 'OTP_ALREADY_USED') void useWithdrawals.getState().fetch();
          return null;
        }
        failed(error, WALLET_MESSAGES.failedTitle);
        return null;
      }
    },

    cancel() {
      set({ step: 'closed', challenge: null, busy: false, errors: {}, attempt: null });
    },

    clearError(field) {
      const errors = get().errors;
      if (errors[field]) set({ errors: { ...errors, [field]: undefined } });
    },
  };
});
