import { OTP_CODE_LENGTH, type WithdrawalAnswer } from '@honeylend/contracts';
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
  failedTitle: 'Withdrawal failed',
  retry: 'Please try again',
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

interface WithdrawalFlowState {
  step: WithdrawalStep;
  challenge: OtpChallenge | null;
  busy: boolean;
  errors: { amount?: string; otp?: string };
  /** 'Withdraw money': refused with the spec's toast when there is nothing to withdraw. */
  open(balance: number): void;
  /** 'Request Withdrawal': checks the amount, then asks the server to text a code for it. */
  requestCode(amountText: string, balance: number): Promise<void>;
  /** Sends a new code for the same amount. */
  resendCode(): Promise<void>;
  /** 'Verify OTP': the request itself, with the code and its challenge. */
  verify(otp: string, bank: { bankName: string; bankAccountNumber: string }): Promise<WithdrawalAnswer | null>;
  /** Cancel: the pending request is forgotten (spec §4). */
  cancel(): void;
  clearError(field: 'amount' | 'otp'): void;
}

/** A peso amount as typed: digits with at most two decimals, or null. */
export function parsePesoAmount(text: string): number | null {
  const trimmed = text.trim().replace(/,/g, '');
  if (!/^\d+(\.\d{1,2})?$/.test(trimmed)) return null;
  return Number(trimmed);
}

function insufficientFunds(): void {
  toast({ variant: 'destructive', title: WALLET_MESSAGES.insufficientTitle, description: WALLET_MESSAGES.insufficientDescription });
}

function codeOf(error: unknown): string | null {
  if (!(error instanceof ApiError) || typeof error.data !== 'object' || error.data === null) return null;
  const code = (error.data as { code?: unknown }).code;
  return typeof code === 'string' ? code : null;
}

function failed(error: unknown): void {
  if (error instanceof ApiError && error.accountSuspended) return;
  if (codeOf(error) === 'INSUFFICIENT_FUNDS') return insufficientFunds();
  toast({ variant: 'destructive', title: WALLET_MESSAGES.failedTitle, description: (error instanceof Error && error.message) || WALLET_MESSAGES.retry });
}

export const useWithdrawalFlow = create<WithdrawalFlowState>()((set, get) => {
  async function sendCode(amount: number): Promise<void> {
    set({ busy: true });
    try {
      const answer = await apiRequest<Omit<OtpChallenge, 'amount'>>('/api/withdrawals/otp', { method: 'POST', body: { amount } });
      set({ step: 'otp', challenge: { amount, ...answer }, busy: false, errors: {} });
    } catch (error) {
      set({ busy: false });
      if (error instanceof ApiError && error.status === 400 && codeOf(error) !== 'INSUFFICIENT_FUNDS') {
        set({ errors: { amount: error.message } });
      }
      failed(error);
    }
  }

  return {
    step: 'closed',
    challenge: null,
    busy: false,
    errors: {},

    open(balance) {
      if (!(balance > 0)) {
        insufficientFunds();
        return;
      }
      set({ step: 'amount', challenge: null, errors: {}, busy: false });
    },

    async requestCode(amountText, balance) {
      if (get().busy) return;
      const amount = parsePesoAmount(amountText);
      if (amount === null || amount < MINIMUM_WITHDRAWAL_PESOS) {
        set({ errors: { amount: WALLET_MESSAGES.minimum } });
        return;
      }
      if (!(balance > 0) || amount > balance) {
        insufficientFunds();
        return;
      }
      await sendCode(amount);
    },

    async resendCode() {
      const challenge = get().challenge;
      if (!challenge || get().busy) return;
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
      set({ busy: true });
      try {
        const withdrawal = await apiRequest<WithdrawalAnswer>('/api/withdrawals', {
          method: 'POST',
          body: { amount: challenge.amount, bankName: bank.bankName, bankAccountNumber: bank.bankAccountNumber, otp: code, challengeId: challenge.challengeId },
        });
        if (withdrawal && typeof withdrawal.version === 'number') useWithdrawals.getState().apply(withdrawal);
        set({ step: 'closed', challenge: null, busy: false, errors: {} });
        toast({
          title: 'Withdrawal approved',
          description: `Your withdrawal of ${formatPesoAmount(challenge.amount)} was processed successfully and is on its way to your bank.`,
        });
        void useWithdrawals.getState().fetch();
        return withdrawal;
      } catch (error) {
        set({ busy: false });
        const code = codeOf(error);
        if (code?.startsWith('OTP_') && error instanceof Error) set({ errors: { otp: error.message } });
        failed(error);
        return null;
      }
    },

    cancel() {
      set({ step: 'closed', challenge: null, busy: false, errors: {} });
    },

    clearError(field) {
      const errors = get().errors;
      if (errors[field]) set({ errors: { ...errors, [field]: undefined } });
    },
  };
});
