import { z } from 'zod';
import { otpJobOptions, type JobKeys, type QueuedJobOptions } from './jobs.js';
import { passwordField, phoneField } from './validation.js';

/**
 * Codes texted to a member for their own account (not for money): a forgotten password, and
 * proving the phone number. The worker makes each code and stores only its keyed hash, as for
 * withdrawal codes; each purpose has its own challenge slot, so no code answers for another
 * purpose or for a withdrawal.
 */
export const ACCOUNT_CODE_QUEUE = 'account-codes';
export const SEND_ACCOUNT_CODE_JOB = 'send-account-code';
/** Long enough to find a text on a slow network; single use, 5 attempts, as withdrawal codes. */
export const ACCOUNT_CODE_TTL_MS = 10 * 60_000;

export const accountCodePurposeSchema = z.enum(['password-reset', 'phone-verification']);
export type AccountCodePurpose = z.infer<typeof accountCodePurposeSchema>;

/** Strict, as the OTP job: job data is stored in Redis in the clear, so a code can never ride along. */
export const accountCodeJobSchema = z.strictObject({
  challengeId: z.uuid(),
  memberId: z.uuid(),
  phone: z.string().regex(/^\+[1-9]\d{7,14}$/),
  purpose: accountCodePurposeSchema,
  requestId: z
    .string()
    .regex(/^[\w-]{8,64}$/)
    .optional(),
});
export type AccountCodeJob = z.infer<typeof accountCodeJobSchema>;

/** jobId = challengeId: one code per challenge however often it is enqueued. */
export function accountCodeJobOptions(challengeId: string): QueuedJobOptions {
  return otpJobOptions(challengeId);
}

/**
 * The job keys with this purpose's own challenge and issue-throttle slots, for the shared
 * challenge store/verify helpers (which bind a code to an amount: account codes use 0).
 */
export function accountCodeKeys(keys: JobKeys, purpose: AccountCodePurpose): JobKeys {
  return {
    ...keys,
    otpChallenge: (memberId) => `${keys.prefix}account-code:${purpose}:challenge:${memberId}`,
    otpIssueThrottle: (memberId) => `${keys.prefix}account-code:${purpose}:issued:${memberId}`,
  };
}

export function accountCodeMessage(purpose: AccountCodePurpose, code: string, ttlMs: number): string {
  const minutes = Math.max(1, Math.ceil(ttlMs / 60_000));
  const what = purpose === 'password-reset' ? 'password reset code' : 'phone confirmation code';
  return `Your Honeylend ${what} is ${code}. It expires in ${minutes} minutes. Never share it${purpose === 'password-reset' ? '; if you did not ask for it, ignore this text' : ''}.`;
}

// ── Request bodies ───────────────────────────────────────────────────────────────────────

const codeField = z
  .string({ error: 'Enter the 6-digit code we texted you' })
  .trim()
  .regex(/^\d{6}$/, 'Enter the 6-digit code we texted you');

/** POST /api/user/password */
export const changePasswordBody = z.object({
  currentPassword: z.string({ error: 'Enter your current password' }).min(1, 'Enter your current password').max(128),
  newPassword: passwordField,
});
/** POST /api/auth/password-reset/request */
export const passwordResetRequestBody = z.object({ phone: phoneField });
/** POST /api/auth/password-reset/confirm */
export const passwordResetConfirmBody = z.object({ phone: phoneField, code: codeField, newPassword: passwordField });
/** POST /api/user/phone-verification/confirm */
export const phoneVerificationConfirmBody = z.object({ code: codeField });
