import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import Router from '@koa/router';
import { JOB_NAMES, maskPhone, OTP_TTL_MS, otpJobOptions, streams, toWithdrawalAnswer } from '@honeylend/contracts';
import { reserveOtpIssue, verifyOtpChallenge } from '@honeylend/contracts/server';
import { authenticate } from '../auth/authenticate.js';
import { handleCommand, loadState } from '../domain/commandHandler.js';
import { ApiError } from '../http/apiError.js';
import { callerOf, jobTraceOf, metadataOf, type ApiDeps } from '../http/context.js';
import { readAfterWrite } from '../consistency/readAfterWrite.js';
import { decideMember, memberDecider } from '../member/decide.js';
import { allocateNumber } from '../sequence/allocateNumber.js';
import { WITHDRAWAL_MESSAGES, withdrawalBody, withdrawalOtpBody } from './withdrawalBodies.js';
import { endpoint } from '../http/endpoint.js';
import * as answers from '../http/answerSchemas.js';

export function withdrawalRoutes(deps: ApiDeps): Router {
  const { store, readModels, progress, tokens, jobs } = deps;
  const router = new Router({ prefix: '/api/withdrawals' });
  router.use(authenticate(tokens, readModels, ['borrower']));

  /**
   * Step one: the borrower names the amount; a code bound to this member and this amount goes out
   * by SMS through a BullMQ job. The code is made by the worker and never passes through here.
   */
  router.post('/otp', endpoint({ summary: 'Step one of a withdrawal: a code for this amount is texted to the borrower', body: withdrawalOtpBody, status: 202, answer: answers.withdrawalOtpAnswer, refusals: ['429 OTP_RESEND_LIMIT', '400 INSUFFICIENT_FUNDS'] }, async (ctx, { body: { amount } }) => {
    const memberId = callerOf(ctx).id;
    const now = deps.now();
    const challengeId = randomUUID();
    const command = { type: 'RequestWithdrawalOtp' as const, memberId, challengeId, amountCentavos: amount, now: now.toISOString() };
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
    await handleCommand(store, streams.member(memberId), memberDecider, command, metadataOf(ctx, memberId));
    await jobs.otpQueue.add(JOB_NAMES.sendOtp, { challengeId, memberId, phone: state.phone, amountCentavos: amount, ...jobTraceOf(ctx) }, otpJobOptions(challengeId));
    ctx.status = 202;
    ctx.body = { sentTo: maskPhone(state.phone), expiresAt: new Date(now.getTime() + OTP_TTL_MS).toISOString(), challengeId };
  }));

  /** Step two: the code confirms the withdrawal; the amount is held at once, on the member's own stream. */
  router.post('/', endpoint({ summary: 'Step two: the texted code confirms the withdrawal; the amount is held at once', body: withdrawalBody, status: 201, answer: answers.withdrawalAnswer, refusals: ['400 OTP_INVALID', '400 OTP_EXPIRED', '400 OTP_EXHAUSTED', '400 INSUFFICIENT_FUNDS'] }, async (ctx, { body: input }) => {
    const memberId = callerOf(ctx).id;
    const now = deps.now();
    const verification = await verifyOtpChallenge(deps.redis, jobs.keys, {
      memberId,
      challengeId: input.challengeId,
      amountCentavos: input.amount,
      code: input.otp,
      now,
      secret: jobs.otpSecret,
    });
    if (verification.outcome !== 'ok' || !verification.challengeId) {
      const [code, message] =
        verification.outcome === 'invalid'
          ? ['OTP_INVALID', WITHDRAWAL_MESSAGES.otpInvalid]
          : verification.outcome === 'exhausted'
            ? ['OTP_EXHAUSTED', WITHDRAWAL_MESSAGES.otpExhausted]
            : ['OTP_EXPIRED', WITHDRAWAL_MESSAGES.otpExpired];
      throw new ApiError(400, code, message, { fields: { otp: message } });
    }
    const metadata = metadataOf(ctx, memberId);
    const withdrawalId = randomUUID();
    const withdrawalNumber = await allocateNumber(store, 'WD', withdrawalId, now, metadata);
    const result = await handleCommand(
      store,
      streams.member(memberId),
      memberDecider,
      {
        type: 'RequestWithdrawal',
        memberId,
        withdrawalId,
        withdrawalNumber,
        amountCentavos: input.amount,
        bankName: input.bankName,
        bankAccountNumber: input.bankAccountNumber,
        challengeId: verification.challengeId,
        now: now.toISOString(),
      },
      metadata,
    );
    ctx.status = 201;
    const doc = await readAfterWrite(ctx, progress, result.position, () => readModels.withdrawal(withdrawalId));
    ctx.body = doc ? toWithdrawalAnswer(doc) : { id: withdrawalId, withdrawalNumber, status: 'pending' };
  }));

  router.get('/', endpoint({ summary: "The borrower's withdrawals", answer: z.array(answers.withdrawalAnswer) }, async (ctx) => {
    ctx.body = (await readModels.withdrawalsOfMember(callerOf(ctx).id)).map(toWithdrawalAnswer);
  }));

  return router;
}
