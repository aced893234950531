import Router from '@koa/router';
import type { Context } from 'koa';
import { changePasswordBody, maskPhone, passwordResetConfirmBody, passwordResetRequestBody, phoneVerificationConfirmBody, streams, toUserAnswer } from '@honeylend/contracts';
import type { OtpVerification } from '@honeylend/contracts/server';
import { authenticate } from '../platform/sessions/authenticate.js';
import { assertNotCommonPassword } from '../platform/passwords/commonPasswords.js';
import { tooMany } from '../platform/throttle/loginThrottle.js';
import { hashPassword, verifyPassword } from '../platform/passwords/passwords.js';
import { throttleAddress } from '../platform/throttle/throttleAddress.js';
import { readAfterWrite } from '../platform/consistency/readAfterWrite.js';
import { handleCommand, loadState } from '../platform/commands/commandHandler.js';
import { ApiError } from '../platform/errors/apiError.js';
import { callerOf, metadataOf, type ApiDeps } from '../platform/context/context.js';
import { memberDecider } from '../members/decide.js';
import { isPhoneVerified, type ExistingMember } from '../members/member.js';
import { loadPhoneHolding } from '../members/phoneHolder.js';
import { isClaimable, PHONE_TAKEN_MESSAGE, phoneReservationDecider } from '../members/phoneReservation.js';
import { checkAccountCode, sendAccountCode } from './accountCodes.js';
import { endpoint } from '../platform/http/endpoint.js';
import * as answers from '../platform/http/answerSchemas.js';
import { noticeVersionOf } from '../members/privacy/privacyRoutes.js';

export const ACCOUNT_MESSAGES = {
  resetRequested: 'If this number has a Honeylend account, we have texted it a code. Enter it with your new password.',
  passwordChanged: 'Your password is changed. Every other session has been signed out.',
  passwordReset: 'Your password is changed. Sign in with your new password.',
  signedOutEverywhere: 'You are signed out on every device.',
  currentPasswordWrong: 'Your current password is not right',
  samePassword: 'Choose a password different from your current one',
  codeWrong: 'This code is not right, or it has expired. Check the text we sent, or request a new code.',
  codeExhausted: 'Too many wrong codes. Request a new code.',
  phoneAlreadyVerified: 'Your phone number is already confirmed.',
} as const;

/** The member holding the number, as the write side knows it (no read model: a reset must work while projections lag). */
async function memberByPhone(deps: ApiDeps, phone: string): Promise<ExistingMember | null> {
  const reservation = await loadState(deps.store, streams.phone(phone), phoneReservationDecider);
  if (!reservation.state.reserved) return null;
  const member = await loadState(deps.store, streams.member(reservation.state.memberId), memberDecider);
  return member.state.exists && member.state.phone === phone ? member.state : null;
}

async function existingMember(deps: ApiDeps, memberId: string): Promise<{ member: ExistingMember }> {
  const { state } = await loadState(deps.store, streams.member(memberId), memberDecider);
  if (!state.exists) throw new ApiError(404, 'MEMBER_NOT_FOUND', 'Account not found');
  return { member: state };
}

function refusedCode(outcome: Exclude<OtpVerification, 'ok'>, field = 'code'): ApiError {
  return outcome === 'exhausted'
    ? new ApiError(400, 'CODE_EXHAUSTED', ACCOUNT_MESSAGES.codeExhausted, { fields: { [field]: ACCOUNT_MESSAGES.codeExhausted } })
    : new ApiError(400, 'CODE_INVALID', ACCOUNT_MESSAGES.codeWrong, { fields: { [field]: ACCOUNT_MESSAGES.codeWrong } });
}

function resendLimit(retryAfterSeconds: number): ApiError {
  return new ApiError(429, 'OTP_RESEND_LIMIT', `Too many codes requested. Please try again in ${Math.ceil(retryAfterSeconds / 60)} minutes.`, { retryAfterSeconds });
}

/** Counts a password-reset request or confirmation against the client address and the number. */
async function throttleReset(deps: ApiDeps, ctx: Context, phone: string, step: 'request' | 'confirm'): Promise<void> {
  const wait = await deps.limits.take(
    [
      { key: `reset-${step}:ip:${throttleAddress(ctx.ip)}`, limit: deps.accountLimits.passwordResetPerAddress },
      { key: `reset-${step}:phone:${phone}`, limit: deps.accountLimits.passwordResetPerPhone },
    ],
    deps.now().getTime(),
  );
  if (wait !== null) throw tooMany(wait);
}

/**
 * The borrower's own account security: forgot password and sign out everywhere under /api/auth;
 * change password and proving the phone number under /api/user. The three that end sessions close
 * the member's sockets on every node themselves: the change feed would, but only once the
 * projections reach the event.
 */
export function accountSecurityRoutes(deps: ApiDeps): Router[] {
  const { store, readModels, progress, tokens } = deps;
  const auth = new Router({ prefix: '/api/auth' });
  const user = new Router({ prefix: '/api/user' });
  const borrower = authenticate(tokens, readModels, ['borrower']);

  /** Always 202 with the same words, whether or not the number has an account: nobody learns who is registered. */
  auth.post(
    '/password-reset/request',
    endpoint(
      {
        summary: 'Forgot password: a code is texted to the number, if it has an account (always 202)',
        public: true,
        body: passwordResetRequestBody,
        status: 202,
        answer: answers.accountMessage,
        refusals: ['429 TOO_MANY_ATTEMPTS'],
      },
      async (ctx, { body: { phone } }) => {
        await throttleReset(deps, ctx, phone, 'request');
        const member = await memberByPhone(deps, phone);
        // A number over its code limit gets the same answer too: the limit is the member's, not the caller's to learn.
        // A closed account (RA 10173) gets no texts: its processing has stopped.
        if (member && member.status !== 'suspended' && member.closedAt === null) await sendAccountCode(deps, ctx, { memberId: member.memberId, phone }, 'password-reset');
        ctx.status = 202;
        ctx.body = { success: true, message: ACCOUNT_MESSAGES.resetRequested };
      },
    ),
  );

  auth.post(
    '/password-reset/confirm',
    endpoint(
      {
        summary: 'Set a new password with the texted code; every session ends',
        public: true,
        body: passwordResetConfirmBody,
        answer: answers.accountMessage,
        refusals: ['400 CODE_INVALID', '400 CODE_EXHAUSTED', '400 VALIDATION_FAILED', '429 TOO_MANY_ATTEMPTS'],
      },
      async (ctx, { body: { phone, code, newPassword } }) => {
        await throttleReset(deps, ctx, phone, 'confirm');
        // The new password's rules first, so a refused password does not spend the code.
        await assertNotCommonPassword(newPassword, 'newPassword');
        const member = await memberByPhone(deps, phone);
        const outcome = member ? await checkAccountCode(deps, member.memberId, 'password-reset', code) : 'invalid';
        if (outcome !== 'ok' || !member) throw refusedCode(outcome === 'ok' ? 'invalid' : outcome);
        const passwordHash = await hashPassword(newPassword);
        const memberId = member.memberId;
        const result = await handleCommand(
          store,
          streams.member(memberId),
          memberDecider,
          { type: 'ChangePassword', memberId, passwordHash, proof: 'texted-code', now: deps.now().toISOString() },
          metadataOf(ctx, memberId),
        );
        await deps.revokeSessions?.(memberId, 'password-changed');
        await readAfterWrite(ctx, progress, result.position, async () => undefined);
        ctx.body = { success: true, message: ACCOUNT_MESSAGES.passwordReset };
      },
    ),
  );

  /** Ends every session of the account, this one included: every token issued so far stops working. */
  auth.post(
    '/logout-everywhere',
    borrower,
    endpoint({ summary: 'Sign out everywhere: every token of the account is refused from now on', answer: answers.accountMessage }, async (ctx) => {
      const memberId = callerOf(ctx).id;
      const result = await handleCommand(store, streams.member(memberId), memberDecider, { type: 'SignOutEverywhere', memberId, now: deps.now().toISOString() }, metadataOf(ctx, memberId));
      await deps.revokeSessions?.(memberId, 'signed-out-everywhere');
      await readAfterWrite(ctx, progress, result.position, async () => undefined);
      ctx.body = { success: true, message: ACCOUNT_MESSAGES.signedOutEverywhere };
    }),
  );

  /** Needs the current password (throttled as a login); every other session ends, and this one gets a new token. */
  user.post(
    '/password',
    borrower,
    endpoint(
      {
        summary: 'Change the password (the current one first); other sessions end, this one gets a new token',
        body: changePasswordBody,
        answer: answers.passwordChanged,
        refusals: ['400 CURRENT_PASSWORD_WRONG', '400 VALIDATION_FAILED', '429 TOO_MANY_ATTEMPTS'],
      },
      async (ctx, { body: { currentPassword, newPassword } }) => {
        const memberId = callerOf(ctx).id;
        const { member } = await existingMember(deps, memberId);
        const account = { side: 'member' as const, name: member.phone };
        await deps.loginThrottle.beginAttempt(account, ctx.ip, deps.now().getTime());
        if (!(await verifyPassword(member.passwordHash, currentPassword))) {
          throw new ApiError(400, 'CURRENT_PASSWORD_WRONG', ACCOUNT_MESSAGES.currentPasswordWrong, { fields: { currentPassword: ACCOUNT_MESSAGES.currentPasswordWrong } });
        }
        await deps.loginThrottle.succeeded(account, ctx.ip, deps.now().getTime());
        if (newPassword === currentPassword) {
          throw new ApiError(400, 'VALIDATION_FAILED', ACCOUNT_MESSAGES.samePassword, { fields: { newPassword: ACCOUNT_MESSAGES.samePassword } });
        }
        await assertNotCommonPassword(newPassword, 'newPassword');
        const passwordHash = await hashPassword(newPassword);
        const result = await handleCommand(
          store,
          streams.member(memberId),
          memberDecider,
          { type: 'ChangePassword', memberId, passwordHash, proof: 'current-password', now: deps.now().toISOString() },
          metadataOf(ctx, memberId),
        );
        // This device's socket too: it opened with the old token, and reconnects with the new one.
        await deps.revokeSessions?.(memberId, 'password-changed');
        // The new token carries the version the change set: it works once the read models have it.
        await readAfterWrite(ctx, progress, result.position, async () => undefined);
        ctx.body = { success: true, message: ACCOUNT_MESSAGES.passwordChanged, token: tokens.sign({ sub: memberId, role: 'borrower', tv: member.tokenVersion + 1 }) };
      },
    ),
  );

  /** Texts a code to the member's number, unless another account holds it and may keep it. */
  user.post(
    '/phone-verification',
    borrower,
    endpoint({ summary: 'Text a code that confirms the phone number', status: 202, answer: answers.codeSent, refusals: ['409 PHONE_ALREADY_VERIFIED', '429 OTP_RESEND_LIMIT'] }, async (ctx) => {
      const memberId = callerOf(ctx).id;
      const { member } = await existingMember(deps, memberId);
      if (isPhoneVerified(member)) throw new ApiError(409, 'PHONE_ALREADY_VERIFIED', ACCOUNT_MESSAGES.phoneAlreadyVerified);
      const { reservation, holderConfirmed } = await loadPhoneHolding(store, member.phone);
      if (reservation.reserved && reservation.memberId !== memberId && !isClaimable(reservation, holderConfirmed, await deps.businessClock.businessNow())) {
        throw new ApiError(409, 'PHONE_TAKEN', PHONE_TAKEN_MESSAGE);
      }
      const issue = await sendAccountCode(deps, ctx, { memberId, phone: member.phone }, 'phone-verification');
      if (!issue.sent) throw resendLimit(issue.retryAfterSeconds);
      ctx.status = 202;
      ctx.body = { sentTo: maskPhone(member.phone), expiresAt: issue.expiresAt };
    }),
  );

  /** The right code proves the number: the member keeps it, or claims it from a holder who never confirmed it. */
  user.post(
    '/phone-verification/confirm',
    borrower,
    endpoint(
      { summary: 'Confirm the phone number with the texted code', body: phoneVerificationConfirmBody, answer: answers.userAnswer, refusals: ['409 PHONE_ALREADY_VERIFIED', '400 CODE_INVALID', '400 CODE_EXHAUSTED'] },
      async (ctx, { body: { code } }) => {
        const memberId = callerOf(ctx).id;
        const { member } = await existingMember(deps, memberId);
        if (isPhoneVerified(member)) throw new ApiError(409, 'PHONE_ALREADY_VERIFIED', ACCOUNT_MESSAGES.phoneAlreadyVerified);
        const outcome = await checkAccountCode(deps, memberId, 'phone-verification', code);
        if (outcome !== 'ok') throw refusedCode(outcome);
        // The business clock, which the reservation's 7 days are counted on.
        const now = (await deps.businessClock.businessNow()).toISOString();
        const metadata = metadataOf(ctx, memberId);
        const { holderConfirmed } = await loadPhoneHolding(store, member.phone);
        await handleCommand(store, streams.phone(member.phone), phoneReservationDecider, { type: 'VerifyPhone', phone: member.phone, memberId, holderConfirmed, now }, metadata);
        const result = await handleCommand(store, streams.member(memberId), memberDecider, { type: 'VerifyPhone', memberId, phone: member.phone, now }, metadata);
        ctx.body = await readAfterWrite(ctx, progress, result.position, async () => {
          const doc = await readModels.member(memberId);
          if (!doc) throw new ApiError(404, 'MEMBER_NOT_FOUND', 'Account not found');
          return toUserAnswer(doc, (fileId) => deps.signedFileUrls.urlFor(fileId), await deps.businessClock.businessNow(), noticeVersionOf(deps));
        });
      },
    ),
  );

  return [auth, user];
}
