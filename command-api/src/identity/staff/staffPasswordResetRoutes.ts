import Router from '@koa/router';
import { z } from 'zod';
import { maskPhone, streams } from '@honeylend/contracts';
import { handleCommand, loadState } from '../../platform/commands/commandHandler.js';
import { readAfterWrite } from '../../platform/consistency/readAfterWrite.js';
import { ApiError } from '../../platform/errors/apiError.js';
import { callerOf, metadataOf, type ApiDeps } from '../../platform/context/context.js';
import { endpoint } from '../../platform/http/endpoint.js';
import { idFromPath } from '../../platform/http/pathId.js';
import * as answers from '../../platform/http/answerSchemas.js';
import { adminAccess } from '../../staff/access/adminAccess.js';
import { memberDecider } from '../../members/decide.js';
import { notifyMember } from '../../members/notifications/notifyMember.js';
import { loadAdminMember } from '../../members/staff/adminMemberAnswer.js';
import { sendAccountCode } from '../accountCodes.js';

export const STAFF_RESET_MESSAGES = {
  passwordNotAccepted: "Staff never choose a member's password. Send no password: this action texts the member a code, and they choose a new password with it.",
  started: (sentTo: string) => `A reset code was texted to the member at ${sentTo}, and they are signed out everywhere. They choose their new password with the code.`,
  noticeTitle: 'Password reset started by our staff',
  notice: 'Our staff started a reset of your Honeylend password, and you are signed out everywhere. Use the code we texted you to choose a new password. If you did not ask for this, contact support now.',
  codeLimit: (minutes: number) => `The member has been sent too many reset codes. Please try again in ${minutes} minutes.`,
} as const;

/** Any password in the body (the spec's client sends `password`) is refused: never silently dropped, so no admin believes it was set. */
const noPassword = z
  .unknown()
  .refine((value) => value === undefined, { message: STAFF_RESET_MESSAGES.passwordNotAccepted, params: { apiCode: 'PASSWORD_NOT_ACCEPTED' } })
  .optional()
  .meta({ description: `Never sent. ${STAFF_RESET_MESSAGES.passwordNotAccepted}` });

/** POST /api/admin/users/:id/password-reset: no body (an empty object is fine). */
export const staffPasswordResetBody = z.object({ password: noPassword, plainPassword: noPassword, newPassword: noPassword }).strip();

/**
 * Design §7: the Reset action for a member who lost access. It starts the member's own
 * forgot-password flow for them: a reset code texted to the member's number (the same code
 * POST /api/auth/password-reset/confirm takes), a text saying staff started it, every session
 * ended (an event naming the admin), and the member's sockets closed on every node. Staff never
 * choose, see or know the password.
 */
export function staffPasswordResetRoutes(deps: ApiDeps): Router {
  const router = new Router({ prefix: '/api/admin/users' });
  router.use(adminAccess(deps));

  router.post(
    '/:id/password-reset',
    endpoint(
      {
        summary: 'Text the member a reset code to choose a new password with; their sessions end (staff never set or see it)',
        body: staffPasswordResetBody,
        status: 202,
        answer: answers.staffPasswordReset,
        refusals: ['400 PASSWORD_NOT_ACCEPTED', '404 MEMBER_NOT_FOUND', '409 MEMBER_SUSPENDED', '409 ACCOUNT_CLOSED', '429 OTP_RESEND_LIMIT'],
      },
      async (ctx) => {
        const adminId = callerOf(ctx).id;
        const memberId = idFromPath(ctx, { code: 'MEMBER_NOT_FOUND', message: 'Member not found' });
        // On the business clock, as the 24-hour rule on payouts by the admin who did it reads it.
        const now = (await deps.businessClock.businessNow()).toISOString();
        const command = { type: 'StartPasswordReset' as const, memberId, startedBy: adminId, now };
        const { state } = await loadState(deps.store, streams.member(memberId), memberDecider);
        if (!state.exists) throw new ApiError(404, 'MEMBER_NOT_FOUND', 'Member not found');
        // Refused (suspended, closed) before a code is texted; decided again on the stream when recorded.
        memberDecider.decide(command, state);
        // The code first: should the member's code limit refuse it, nothing is recorded and no session ends.
        const issue = await sendAccountCode(deps, ctx, { memberId, phone: state.phone }, 'password-reset');
        if (!issue.sent) {
          const minutes = Math.ceil(issue.retryAfterSeconds / 60);
          throw new ApiError(429, 'OTP_RESEND_LIMIT', STAFF_RESET_MESSAGES.codeLimit(minutes), { retryAfterSeconds: issue.retryAfterSeconds });
        }
        const result = await handleCommand(deps.store, streams.member(memberId), memberDecider, command, metadataOf(ctx, adminId));
        await deps.revokeSessions?.(memberId, 'password-reset');
        const notice = await notifyMember(deps, ctx, adminId, { memberId, title: STAFF_RESET_MESSAGES.noticeTitle, message: STAFF_RESET_MESSAGES.notice, type: 'account' });
        const sentTo = maskPhone(state.phone);
        ctx.status = 202;
        const user = await readAfterWrite(ctx, deps.progress, notice.position ?? result.position, () => loadAdminMember(deps, memberId));
        ctx.body = { success: true, message: STAFF_RESET_MESSAGES.started(sentTo), sentTo, user };
      },
    ),
  );

  return router;
}
