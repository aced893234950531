import type { Context } from 'koa';
import { OTP_DAILY_WRONG_LIMIT, streams } from '@honeylend/contracts';
import { countWrongCode, type OtpVerification } from '@honeylend/contracts/server';
import { notifyMember } from '../notifications/notifyMember.js';
import { handleCommand } from '../../platform/commands/commandHandler.js';
import { ApiError } from '../../platform/errors/apiError.js';
import { metadataOf, type ApiDeps } from '../../platform/context/context.js';
import { memberDecider } from '../decide.js';

export const CODE_MESSAGES = {
  invalid: 'Invalid OTP code',
  expired: 'This code has expired. Please request a new code.',
  exhausted: 'Too many wrong codes. Please request a new code.',
} as const;

/** The answer to a code that did not confirm anything, on the field the client shows it under. */
export function codeRefused(outcome: Exclude<OtpVerification, 'ok'>, field: string): ApiError {
  const [code, message] = outcome === 'invalid' ? ['OTP_INVALID', CODE_MESSAGES.invalid] : outcome === 'exhausted' ? ['OTP_EXHAUSTED', CODE_MESSAGES.exhausted] : ['OTP_EXPIRED', CODE_MESSAGES.expired];
  return new ApiError(400, code, message, { fields: { [field]: message } });
}

/**
 * Counts a wrong code (withdrawal or bank change) against the member's Manila day. Each code dies
 * after 5 wrong tries, but new codes can be asked for all day; the 15th wrong code of a day holds
 * withdrawals for 24 hours and texts the member, who may not be the one typing.
 */
export async function recordWrongCode(deps: ApiDeps, ctx: Context, memberId: string, now: Date): Promise<void> {
  const wrongToday = await countWrongCode(deps.redis, deps.jobs.keys, memberId, now);
  if (wrongToday !== OTP_DAILY_WRONG_LIMIT) return;
  await handleCommand(
    deps.store,
    streams.member(memberId),
    memberDecider,
    { type: 'HoldWithdrawals', memberId, reason: 'too-many-wrong-codes', now: (await deps.businessClock.businessNow()).toISOString() },
    metadataOf(ctx, memberId),
  );
  await notifyMember(deps, ctx, memberId, {
    memberId,
    type: 'account',
    title: 'Withdrawals paused',
    message: `${OTP_DAILY_WRONG_LIMIT} wrong codes were typed on your account today, so withdrawals are paused for 24 hours. If this was not you, change your password now.`,
  });
}
