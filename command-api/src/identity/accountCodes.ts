import { randomUUID } from 'node:crypto';
import type { Context } from 'koa';
import { ACCOUNT_CODE_TTL_MS, SEND_ACCOUNT_CODE_JOB, accountCodeJobOptions, accountCodeKeys, type AccountCodePurpose } from '@honeylend/contracts';
import { reserveOtpIssue, verifyOtpChallenge, type OtpVerification } from '@honeylend/contracts/server';
import { jobTraceOf, type ApiDeps } from '../platform/context/context.js';

export type CodeIssue = { sent: true; expiresAt: string } | { sent: false; retryAfterSeconds: number };

/**
 * Asks the workers to text the member a code for `purpose` (3 per 15 minutes per purpose, as
 * withdrawal codes). The code is made by the worker and never passes through the API.
 */
export async function sendAccountCode(deps: ApiDeps, ctx: Context, member: { memberId: string; phone: string }, purpose: AccountCodePurpose): Promise<CodeIssue> {
  const now = deps.now();
  const challengeId = randomUUID();
  const issue = await reserveOtpIssue(deps.redis, accountCodeKeys(deps.jobs.keys, purpose), { memberId: member.memberId, challengeId, now });
  if (!issue.allowed) return { sent: false, retryAfterSeconds: issue.retryAfterSeconds };
  await deps.jobs.accountCodeQueue.add(SEND_ACCOUNT_CODE_JOB, { challengeId, memberId: member.memberId, phone: member.phone, purpose, ...jobTraceOf(ctx) }, accountCodeJobOptions(challengeId));
  return { sent: true, expiresAt: new Date(now.getTime() + ACCOUNT_CODE_TTL_MS).toISOString() };
}

/** Checks (and on success spends) the member's live code for `purpose`: single use, 5 attempts. */
export async function checkAccountCode(deps: ApiDeps, memberId: string, purpose: AccountCodePurpose, code: string): Promise<OtpVerification> {
  const { outcome } = await verifyOtpChallenge(deps.redis, accountCodeKeys(deps.jobs.keys, purpose), {
    memberId,
    amountCentavos: 0,
    code,
    now: deps.now(),
    secret: deps.jobs.otpSecret,
  });
  return outcome;
}
