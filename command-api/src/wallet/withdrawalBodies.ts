import { z } from 'zod';
import { MESSAGES, pesoAmountField } from '@honeylend/contracts';

export const WITHDRAWAL_MESSAGES = {
  minimum: 'Minimum withdrawal amount is ₱1,000',
  otpLength: 'OTP must be exactly 6 digits',
} as const;

const withdrawalAmount = pesoAmountField(WITHDRAWAL_MESSAGES.minimum, { min: 1000 });

export const withdrawalOtpBody = z.object({ amount: withdrawalAmount });

export const withdrawalBody = z.object({
  amount: withdrawalAmount,
  // The spec's client sends the destination; it may, but the money goes only to the profile's account,
  // so anything named here must be that account (checked by the member's decider).
  bankName: z.string({ error: MESSAGES.bankNameRequired }).trim().min(1, MESSAGES.bankNameRequired).max(80).optional(),
  bankAccountNumber: z
    .string({ error: MESSAGES.accountNumberRequired })
    .trim()
    .transform((v) => v.replace(/[\s-]/g, ''))
    .pipe(z.string().min(10, MESSAGES.accountNumberRequired).max(34, MESSAGES.accountNumberRequired))
    .optional(),
  otp: z
    .string({ error: WITHDRAWAL_MESSAGES.otpLength })
    .trim()
    .regex(/^\d{6}$/, WITHDRAWAL_MESSAGES.otpLength),
  /** The challenge POST /api/withdrawals/otp answered; without it, the member's live challenge. */
  challengeId: z.uuid().optional(),
});
