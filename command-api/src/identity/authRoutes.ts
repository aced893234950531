import Router from '@koa/router';
import { adminLoginBody, loginBody, MESSAGES, normalisePhone, selfRegistrationBody, streams, toAdminAnswer, toUserAnswer } from '@honeylend/contracts';
import { handleCommand, loadState } from '../platform/commands/commandHandler.js';
import { DomainError } from '../platform/commands/decider.js';
import { ApiError } from '../platform/errors/apiError.js';
import { callerOf, metadataOf, type ApiDeps } from '../platform/context/context.js';
import { authenticate } from '../platform/sessions/authenticate.js';
import { readAfterWrite } from '../platform/consistency/readAfterWrite.js';
import { MEMBER_MESSAGES, memberDecider } from '../members/decide.js';
import { accountClosedRefusal, noticeVersionOf } from '../members/privacy/privacyRoutes.js';
import { phoneReservationDecider } from '../members/phoneReservation.js';
import { registerMember } from '../members/registration.js';
import { adminAccountDecider, adminUsernameDecider } from '../staff/adminAccount.js';
import { verifyPassword } from '../platform/passwords/passwords.js';
import { endpoint } from '../platform/http/endpoint.js';
import * as answers from '../platform/http/answerSchemas.js';
import { tooMany } from '../platform/throttle/loginThrottle.js';
import { throttleAddress } from '../platform/throttle/throttleAddress.js';

export function authRoutes(deps: ApiDeps): Router {
  const { store, readModels, progress, tokens, loginThrottle } = deps;
  const router = new Router({ prefix: '/api/auth' });

  router.post(
    '/register',
    endpoint(
      {
        summary: 'Register as a borrower',
        public: true,
        body: selfRegistrationBody,
        status: 201,
        answer: answers.signedIn(answers.userAnswer),
        refusals: ['409 ALREADY_REGISTERED', '409 NOTICE_CHANGED', '400 PASSWORD_TOO_COMMON', '429 TOO_MANY_ATTEMPTS'],
      },
      async (ctx, { body: input }) => {
        // Counted before anything is read or hashed, per client address and per number, in one atomic step.
        const wait = await deps.limits.take(
          [
            { key: `register:ip:${throttleAddress(ctx.ip)}`, limit: deps.accountLimits.registrationPerAddress },
            { key: `register:phone:${input.phone}`, limit: deps.accountLimits.registrationPerPhone },
          ],
          deps.now().getTime(),
        );
        if (wait !== null) throw tooMany(wait, `Too many sign-ups from here. Please try again in ${wait} seconds.`);
        let registration;
        try {
          // The registration form showed the privacy notice; its version must be the one in force (RA 10173 sec. 12).
          if (input.privacyNoticeVersion !== undefined && input.privacyNoticeVersion !== noticeVersionOf(deps)) {
            throw new ApiError(409, 'NOTICE_CHANGED', MEMBER_MESSAGES.noticeChanged, { noticeVersion: noticeVersionOf(deps) });
          }
          // The business clock: a number left unconfirmed is claimable 7 business days after it was reserved.
          registration = await registerMember(store, input, 'self', metadataOf(ctx, 'self'), await deps.businessClock.businessNow());
        } catch (error) {
          if (error instanceof DomainError && error.code === 'ALREADY_REGISTERED') {
            throw new ApiError(409, 'ALREADY_REGISTERED', MESSAGES.alreadyRegistered, undefined, { alreadyRegistered: true });
          }
          throw error;
        }
        let position = registration.position;
        if (input.privacyNoticeVersion !== undefined) {
          const consent = await handleCommand(
            store,
            streams.member(registration.memberId),
            memberDecider,
            { type: 'GiveConsent', memberId: registration.memberId, noticeVersion: input.privacyNoticeVersion, currentVersion: noticeVersionOf(deps), now: deps.now().toISOString() },
            metadataOf(ctx, registration.memberId),
          );
          position = consent.position ?? position;
        }
        ctx.status = 201;
        const doc = await readAfterWrite(ctx, progress, position, () => readModels.member(registration.memberId));
        ctx.body = {
          success: true,
          token: tokens.sign({ sub: registration.memberId, role: 'borrower', tv: 0 }),
          user: doc ? toUserAnswer(doc, (fileId) => deps.signedFileUrls.urlFor(fileId), await deps.businessClock.businessNow(), noticeVersionOf(deps)) : null,
        };
      },
    ),
  );

  router.post(
    '/login',
    endpoint(
      {
        summary: 'Sign in as a borrower',
        public: true,
        body: loginBody,
        answer: answers.signedIn(answers.userAnswer),
        refusals: ['401 INVALID_CREDENTIALS', '403 ACCOUNT_SUSPENDED', '403 ACCOUNT_CLOSED', '429 TOO_MANY_ATTEMPTS'],
      },
      async (ctx, { body: input }) => {
        await loginThrottle.beginAttempt({ side: 'member', name: input.phone }, ctx.ip, deps.now().getTime());
        const phone = await loadState(store, streams.phone(input.phone), phoneReservationDecider);
        const member = phone.state.reserved ? await loadState(store, streams.member(phone.state.memberId), memberDecider) : null;
        const account = member?.state.exists ? member.state : null;
        // The same answer (and the same argon2 work) whether the phone or the password was wrong.
        if (!(await verifyPassword(account?.passwordHash ?? null, input.password)) || !account) {
          throw new ApiError(401, 'INVALID_CREDENTIALS', MESSAGES.invalidCredentials);
        }
        await loginThrottle.succeeded({ side: 'member', name: input.phone }, ctx.ip, deps.now().getTime());
        if (account.closedAt !== null) throw accountClosedRefusal(account.closedAt);
        if (account.status === 'suspended') {
          throw new ApiError(403, 'ACCOUNT_SUSPENDED', MESSAGES.accountSuspended, undefined, { accountStatus: 'suspended' });
        }
        const doc = await readAfterWrite(ctx, progress, member!.position, () => readModels.member(account.memberId));
        ctx.body = {
          success: true,
          token: tokens.sign({ sub: account.memberId, role: 'borrower', tv: account.tokenVersion }),
          user: doc ? toUserAnswer(doc, (fileId) => deps.signedFileUrls.urlFor(fileId), await deps.businessClock.businessNow(), noticeVersionOf(deps)) : null,
        };
      },
    ),
  );

  router.post(
    '/admin-login',
    endpoint(
      {
        summary: 'Sign in as staff (admin, auditor, main admin), from an allowed address',
        public: true,
        body: adminLoginBody,
        answer: answers.signedIn(answers.adminAnswer),
        refusals: ['401 INVALID_CREDENTIALS', '429 TOO_MANY_ATTEMPTS'],
      },
      async (ctx, { body: input }) => {
        // An admin may sign in with a phone number in any format; it is reserved in E.164.
        const username = normalisePhone(input.username) ?? input.username.toLowerCase();
        await loginThrottle.beginAttempt({ side: 'admin', name: username }, ctx.ip, deps.now().getTime());
        const reservation = await loadState(store, streams.adminUsername(username), adminUsernameDecider);
        const admin = reservation.state.reserved ? await loadState(store, streams.admin(reservation.state.adminId), adminAccountDecider) : null;
        const account = admin?.state.exists ? admin.state : null;
        if (!(await verifyPassword(account?.passwordHash ?? null, input.password)) || !account) {
          throw new ApiError(401, 'INVALID_CREDENTIALS', MESSAGES.invalidAdminCredentials);
        }
        await loginThrottle.succeeded({ side: 'admin', name: username }, ctx.ip, deps.now().getTime());
        const doc = await readAfterWrite(ctx, progress, admin!.position, () => readModels.admin(account.adminId));
        ctx.body = {
          success: true,
          token: tokens.sign({ sub: account.adminId, role: account.role, tv: account.tokenVersion }),
          user: doc ? toAdminAnswer(doc) : null,
        };
      },
    ),
  );

  /** Signing out ends this token at once (not only in this browser): it is refused from now on. */
  router.post(
    '/logout',
    authenticate(tokens, readModels, ['borrower', 'admin', 'superadmin', 'auditor']),
    endpoint({ summary: 'Sign out: this token is refused from now on', answer: answers.success }, async (ctx) => {
      const caller = callerOf(ctx);
      await tokens.revoked?.revoke(caller.tokenId, caller.tokenExpiresAt);
      ctx.body = { success: true };
    }),
  );

  return router;
}
