import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import Router from '@koa/router';
import { JOB_NAMES, OTP_TTL_MS, maskPhone, maskedDestination, otpJobOptions, streams, toWithdrawalAnswer } from '@honeylend/contracts';
import { consumeChallenge, reserveOtpIssue, verifyOtpChallenge } from '@honeylend/contracts/server';
import { authenticate } from '../platform/sessions/authenticate.js';
import { handleCommand, loadState } from '../platform/commands/commandHandler.js';
import { ApiError } from '../platform/errors/apiError.js';
import { callerOf, jobTraceOf, metadataOf, type ApiDeps } from '../platform/context/context.js';
import { readAfterWrite } from '../platform/consistency/readAfterWrite.js';
import { decideMember, MEMBER_MESSAGES, memberDecider, type MemberCommand } from '../members/decide.js';
import { payoutAccount } from '../members/member.js';
import { codeRefused, recordWrongCode } from '../members/codes/wrongCodes.js';
import { allocateNumber } from '../platform/sequence/allocateNumber.js';
import { withdrawalBody, withdrawalOtpBody } from './withdrawalBodies.js';
import { endpoint } from '../platform/http/endpoint.js';
import * as answers from '../platform/http/answerSchemas.js';

export function withdrawalRoutes(deps: ApiDeps): Router {
  const { store, readModels, progress, tokens, jobs } = deps;
  const router = new Router({ prefix: '/api/withdrawals' });
  router.use(authenticate(tokens, readModels, ['borrower']));

  /**
   * Step one: the borrower names the amount; a code bound to this member, this amount and the
   * profile's bank account goes out by SMS through a BullMQ job, its text naming both. The code is
   * made by the worker and never passes through here.
   */
  router.post(
    '/otp',
    endpoint(
      {
        summary: 'Step one of a withdrawal: a code for this amount is texted to the borrower',
        body: withdrawalOtpBody,
        status: 202,
        answer: answers.withdrawalOtpAnswer,
        refusals: ['429 OTP_RESEND_LIMIT', '400 INSUFFICIENT_FUNDS', '403 WITHDRAWALS_HELD'],
      },
      async (ctx, { body: { amount } }) => {
        const caller = callerOf(ctx);
        const memberId = caller.id;
        const now = deps.now();
        const challengeId = randomUUID();
        // The member's stream judges any withdrawal hold by the business clock; the code itself lives 5 wall-clock minutes.
        const businessNow = (await deps.businessClock.businessNow()).toISOString();
        const command = { type: 'RequestWithdrawalOtp' as const, memberId, challengeId, amountCentavos: amount, tokenVersion: caller.tokenVersion, now: businessNow };
        // Decide once without writing, so a refused amount neither counts against the resend limit nor reaches the log.
        const { state } = await loadState(store, streams.member(memberId), memberDecider);
        if (!state.exists) throw new ApiError(404, 'MEMBER_NOT_FOUND', 'Account not found');
        decideMember(command, state);
        const issue = await reserveOtpIssue(deps.redis, jobs.keys, { memberId, challengeId, now });
        if (!issue.allowed) {
          throw new ApiError(429, 'OTP_RESEND_LIMIT', `Too many codes requested. Please try again in ${Math.ceil(issue.retryAfterSeconds / 60)} minutes.`, {
            retryAfterSeconds: issue.retryAfterSeconds,
          });
        }
        const result = await handleCommand(store, streams.member(memberId), memberDecider, command, metadataOf(ctx, memberId));
        const account = result.state.exists ? payoutAccount(result.state) : null;
        const destination = account ? maskedDestination(account.bankName, account.bankAccountNumber) : undefined;
        await jobs.otpQueue.add(JOB_NAMES.sendOtp, { challengeId, memberId, phone: state.phone, amountCentavos: amount, ...(destination ? { destination } : {}), ...jobTraceOf(ctx) }, otpJobOptions(challengeId));
        ctx.status = 202;
        ctx.body = { sentTo: maskPhone(state.phone), expiresAt: new Date(now.getTime() + OTP_TTL_MS).toISOString(), challengeId, ...(destination ? { destination } : {}) };
      },
    ),
  );

  /**
   * Step two: the code confirms the withdrawal; the amount is held at once, on the member's own
   * stream, and paid only to the profile's account. Everything the member's stream would refuse is
   * refused before the code is checked, so no attempt is spent on a withdrawal that cannot happen.
   * A right code is spent only once the withdrawal is recorded: should the append fail, the member
   * can send the same code again.
   */
  router.post(
    '/',
    endpoint(
      {
        summary: 'Step two: the texted code confirms the withdrawal; the amount is held at once',
        body: withdrawalBody,
        status: 201,
        answer: answers.withdrawalAnswer,
        refusals: ['400 OTP_INVALID', '400 OTP_EXPIRED', '400 OTP_EXHAUSTED', '400 WITHDRAWAL_DESTINATION_NOT_PROFILE', '400 INSUFFICIENT_FUNDS', '403 WITHDRAWALS_HELD'],
      },
      async (ctx, { body: input }) => {
        const caller = callerOf(ctx);
        const memberId = caller.id;
        const now = deps.now();
        // As for the code request: the hold by the business clock, the code by the wall clock.
        const businessNow = (await deps.businessClock.businessNow()).toISOString();
        const withdrawalId = randomUUID();
        const command = (challengeId: string, withdrawalNumber: string): MemberCommand => ({
          type: 'RequestWithdrawal',
          memberId,
          withdrawalId,
          withdrawalNumber,
          amountCentavos: input.amount,
          ...(input.bankName !== undefined ? { bankName: input.bankName } : {}),
          ...(input.bankAccountNumber !== undefined ? { bankAccountNumber: input.bankAccountNumber } : {}),
          challengeId,
          tokenVersion: caller.tokenVersion,
          now: businessNow,
        });
        const { state } = await loadState(store, streams.member(memberId), memberDecider);
        if (!state.exists) throw new ApiError(404, 'MEMBER_NOT_FOUND', 'Account not found');
        // A stand-in challenge: which challenge the code belongs to (and whether it was spent) is the code check's to say.
        decideMember(command(randomUUID(), 'WD-check'), state);

        const verification = await verifyOtpChallenge(deps.redis, jobs.keys, {
          memberId,
          ...(input.challengeId ? { challengeId: input.challengeId } : {}),
          amountCentavos: input.amount,
          code: input.otp,
          now,
          secret: jobs.otpSecret,
          keepUntilConsumed: true,
        });
        if (verification.outcome !== 'ok' || !verification.challengeId) {
          // A spent code is deleted, so it reads as 'expired'; when this member's log shows the
          // challenge was spent on a withdrawal, say so: the borrower's request went through.
          if (verification.outcome === 'expired' && input.challengeId) {
            const { state } = await loadState(store, streams.member(memberId), memberDecider);
            if (state.exists && state.usedChallengeIds.has(input.challengeId)) {
              throw new ApiError(400, 'OTP_ALREADY_USED', MEMBER_MESSAGES.otpAlreadyUsed, { fields: { otp: MEMBER_MESSAGES.otpAlreadyUsed } });
            }
          }
          if (verification.outcome === 'invalid') await recordWrongCode(deps, ctx, memberId, now);
          throw codeRefused(verification.outcome === 'ok' ? 'expired' : verification.outcome, 'otp');
        }
        const challengeId = verification.challengeId;
        const metadata = metadataOf(ctx, memberId);
        const withdrawalNumber = await allocateNumber(store, 'WD', withdrawalId, now, metadata);
        const result = await handleCommand(store, streams.member(memberId), memberDecider, command(challengeId, withdrawalNumber), metadata).catch(async (error: unknown) => {
          // Already spent on a withdrawal (a racing request with the same code won): the code is done.
          if ((error as { code?: string }).code === 'OTP_ALREADY_USED') await consumeChallenge(deps.redis, jobs.keys.otpChallenge(memberId), challengeId);
          throw error;
        });
        await consumeChallenge(deps.redis, jobs.keys.otpChallenge(memberId), challengeId);
        ctx.status = 201;
        const doc = await readAfterWrite(ctx, progress, result.position, () => readModels.withdrawal(withdrawalId));
        ctx.body = doc ? toWithdrawalAnswer(doc) : { id: withdrawalId, withdrawalNumber, status: 'pending' };
      },
    ),
  );

  router.get(
    '/',
    endpoint({ summary: "The borrower's withdrawals", answer: z.array(answers.withdrawalAnswer) }, async (ctx) => {
      ctx.body = (await readModels.withdrawalsOfMember(callerOf(ctx).id)).map(toWithdrawalAnswer);
    }),
  );

  return router;
}
