import { randomUUID } from 'node:crypto';
import Router from '@koa/router';
import { z } from 'zod';
import { JOB_NAMES, OTP_TTL_MS, maskPhone, maskedDestination, otpJobOptions, profileFields, profileUpdateBody, streams, toUserAnswer, type DocumentKind, type MemberDoc, type ProfileChanges } from '@honeylend/contracts';
import { bankChangeBinding, consumeChallenge, reserveOtpIssue, verifyBankChangeCode } from '@honeylend/contracts/server';
import { authenticate, authenticatedRead } from '../platform/sessions/authenticate.js';
import { handleCommand, loadState } from '../platform/commands/commandHandler.js';
import { ApiError } from '../platform/errors/apiError.js';
import { callerOf, jobTraceOf, metadataOf, type ApiDeps } from '../platform/context/context.js';
import { readAfterWrite } from '../platform/consistency/readAfterWrite.js';
import { memberDecider, newPayoutAccount } from './decide.js';
import { payoutAccount, type ExistingMember } from './member.js';
import { codeRefused, recordWrongCode } from './codes/wrongCodes.js';
import { fileIdFromUrl } from '../platform/uploads/signedFileUrls.js';
import { endpoint } from '../platform/http/endpoint.js';
import { noticeVersionOf } from './privacy/privacyRoutes.js';
import * as answers from '../platform/http/answerSchemas.js';

const DOCUMENT_FIELDS = { idFrontUrl: 'idFront', idBackUrl: 'idBack', selfieUrl: 'selfie' } as const;
const CODE_LENGTH_MESSAGE = 'The code is exactly 6 digits';

/** The profile edit, with the code texted to the member when it replaces their bank account (issue 14). */
export const profileEditBody = profileUpdateBody.extend({
  otp: z
    .string({ error: CODE_LENGTH_MESSAGE })
    .trim()
    .regex(/^\d{6}$/, CODE_LENGTH_MESSAGE)
    .optional(),
});

export const bankChangeCodeBody = z.object({ bankName: profileFields.bankName, bankAccountNumber: profileFields.bankAccountNumber });

/** The file ids behind the document URLs sent. */
function documentsFrom(body: Partial<Record<keyof typeof DOCUMENT_FIELDS, string>>): Partial<Record<DocumentKind, string>> {
  const documents: Partial<Record<DocumentKind, string>> = {};
  for (const [field, kind] of Object.entries(DOCUMENT_FIELDS) as [keyof typeof DOCUMENT_FIELDS, DocumentKind][]) {
    const value = body[field];
    if (value === undefined) continue;
    // The body schema takes only the URLs an upload answers (documentUrlField): the id is there.
    documents[kind] = fileIdFromUrl(value)!;
  }
  return documents;
}

/** The member as the event store has them now, refused as authenticate would refuse them had the read models caught up. */
async function currentMember(deps: ApiDeps, memberId: string, tokenVersion: number): Promise<ExistingMember> {
  const { state } = await loadState(deps.store, streams.member(memberId), memberDecider);
  if (!state.exists) throw new ApiError(404, 'MEMBER_NOT_FOUND', 'Account not found');
  if (state.tokenVersion !== tokenVersion) throw new ApiError(401, 'UNAUTHORIZED', 'Please sign in to continue');
  if (state.status === 'suspended') throw new ApiError(403, 'ACCOUNT_SUSPENDED', 'Your account has been suspended. Please contact support.', undefined, { accountStatus: 'suspended' });
  return state;
}

export function profileRoutes(deps: ApiDeps): Router {
  const { store, readModels, progress, tokens, jobs } = deps;
  const router = new Router({ prefix: '/api/user' });
  const borrowerRead = authenticatedRead(tokens, readModels, ['borrower']);
  const borrower = authenticate(tokens, readModels, ['borrower']);

  // The withdrawal hold ends by the business clock, the one the withdrawal routes judge it on.
  const userAnswer = async (doc: MemberDoc | null) => {
    if (!doc) throw new ApiError(404, 'MEMBER_NOT_FOUND', 'Account not found');
    return toUserAnswer(doc, (fileId) => deps.signedFileUrls.urlFor(fileId), await deps.businessClock.businessNow(), noticeVersionOf(deps));
  };

  router.get(
    '/profile',
    endpoint({ summary: "The borrower's own profile", answer: answers.userAnswer }, async (ctx) => {
      ctx.body = await userAnswer(await borrowerRead(ctx, (memberId) => readModels.member(memberId)));
    }),
  );

  /**
   * A profile edit. Replacing the bank account already on the profile takes the code
   * POST /bank-account/otp texted for that very account (403 BANK_CHANGE_NEEDS_CODE without it)
   * and holds withdrawals for 24 hours; the first bank details of a profile need no code. A right
   * code is spent once the change is recorded.
   */
  router.put(
    '/profile',
    borrower,
    endpoint(
      {
        summary: "Change the borrower's own profile (a new bank account takes the texted code)",
        body: profileEditBody,
        answer: answers.userAnswer,
        refusals: ['403 BANK_CHANGE_NEEDS_CODE', '400 OTP_INVALID', '400 OTP_EXPIRED', '400 OTP_EXHAUSTED'],
      },
      async (ctx, { body }) => {
        const { monthlySalary, idFrontUrl, idBackUrl, selfieUrl, otp, ...rest } = body;
        const changes: ProfileChanges = { ...rest, ...(monthlySalary !== undefined ? { monthlySalaryCentavos: monthlySalary } : {}) };
        const documents = documentsFrom({ idFrontUrl, idBackUrl, selfieUrl });
        const caller = callerOf(ctx);
        const memberId = caller.id;
        const now = deps.now();
        let confirmedChallenge: string | null = null;
        if (otp !== undefined) {
          const newAccount = newPayoutAccount(await currentMember(deps, memberId, caller.tokenVersion), changes);
          if (newAccount) {
            const verification = await verifyBankChangeCode(deps.redis, jobs.keys, {
              memberId,
              binding: bankChangeBinding(newAccount.bankName, newAccount.bankAccountNumber),
              code: otp,
              now,
              secret: jobs.otpSecret,
              keepUntilConsumed: true,
            });
            if (verification.outcome !== 'ok' || !verification.challengeId) {
              if (verification.outcome === 'invalid') await recordWrongCode(deps, ctx, memberId, now);
              throw codeRefused(verification.outcome === 'ok' ? 'expired' : verification.outcome, 'otp');
            }
            confirmedChallenge = verification.challengeId;
          }
        }
        const result = await handleCommand(
          store,
          streams.member(memberId),
          memberDecider,
          {
            type: 'UpdateProfile',
            memberId,
            changes,
            documents,
            bankChangeConfirmed: confirmedChallenge !== null,
            tokenVersion: caller.tokenVersion,
            // A new bank account holds withdrawals 24 hours by the business clock; the code above is checked on the wall clock (it lives 5 real minutes).
            now: (await deps.businessClock.businessNow()).toISOString(),
          },
          metadataOf(ctx, memberId),
        );
        if (confirmedChallenge) await consumeChallenge(deps.redis, jobs.keys.bankChangeChallenge(memberId), confirmedChallenge);
        ctx.body = await readAfterWrite(ctx, progress, result.position, async () => userAnswer(await readModels.member(memberId)));
      },
    ),
  );

  /**
   * Texts a code that confirms replacing the profile's bank account with the one named here (and
   * no other); its text names the new account, masked. Counted against the member's code limit.
   */
  router.post(
    '/bank-account/otp',
    borrower,
    endpoint(
      {
        summary: 'Text a code that confirms replacing the bank account with this one',
        body: bankChangeCodeBody,
        status: 202,
        answer: answers.bankChangeCodeAnswer,
        refusals: ['429 OTP_RESEND_LIMIT', '409 SAME_BANK_ACCOUNT', '409 NO_CODE_NEEDED'],
      },
      async (ctx, { body: input }) => {
        const caller = callerOf(ctx);
        const memberId = caller.id;
        const now = deps.now();
        const member = await currentMember(deps, memberId, caller.tokenVersion);
        if (!payoutAccount(member)) {
          throw new ApiError(409, 'NO_CODE_NEEDED', 'Your profile has no bank account yet: save your first bank details without a code.');
        }
        const newAccount = newPayoutAccount(member, input);
        if (!newAccount) throw new ApiError(409, 'SAME_BANK_ACCOUNT', 'This is already the bank account on your profile.');
        const challengeId = randomUUID();
        const issue = await reserveOtpIssue(deps.redis, jobs.keys, { memberId, challengeId, now });
        if (!issue.allowed) {
          throw new ApiError(429, 'OTP_RESEND_LIMIT', `Too many codes requested. Please try again in ${Math.ceil(issue.retryAfterSeconds / 60)} minutes.`, {
            retryAfterSeconds: issue.retryAfterSeconds,
          });
        }
        const destination = maskedDestination(newAccount.bankName, newAccount.bankAccountNumber);
        await jobs.otpQueue.add(
          JOB_NAMES.sendBankChangeCode,
          { challengeId, memberId, phone: member.phone, binding: bankChangeBinding(newAccount.bankName, newAccount.bankAccountNumber), destination, ...jobTraceOf(ctx) },
          otpJobOptions(challengeId),
        );
        ctx.status = 202;
        ctx.body = { sentTo: maskPhone(member.phone), expiresAt: new Date(now.getTime() + OTP_TTL_MS).toISOString(), challengeId, destination };
      },
    ),
  );

  return router;
}
