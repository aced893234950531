import Router from '@koa/router';
import {
  PRIVACY_NOTICE_VERSION,
  closureRequestBody,
  consentBody,
  redactEventData,
  streams,
  toClosureAnswer,
  toClosureObligationAnswer,
  toLoanAnswer,
  toNotificationAnswer,
  toUserAnswer,
  toWithdrawalAnswer,
  type ClosureObligation,
  type MemberDoc,
} from '@honeylend/contracts';
import type { RecordedEvent } from '@honeylend/eventstore';
import { authenticate } from '../../platform/sessions/authenticate.js';
import { readAfterWrite } from '../../platform/consistency/readAfterWrite.js';
import { handleCommand } from '../../platform/commands/commandHandler.js';
import { ApiError } from '../../platform/errors/apiError.js';
import { callerOf, metadataOf, type ApiDeps } from '../../platform/context/context.js';
import { endpoint } from '../../platform/http/endpoint.js';
import * as answers from '../../platform/http/answerSchemas.js';
import { readCompanyDetails } from '../../company/companyRoutes.js';
import { memberDecider } from '../decide.js';
import { memberOnWriteSide } from '../memberOnWriteSide.js';
import { privacyNotice } from './privacyNotice.js';

/** The notice version this API holds members to. */
export function noticeVersionOf(deps: ApiDeps): string {
  return deps.privacyNoticeVersion ?? PRIVACY_NOTICE_VERSION;
}

export const CLOSURE_REFUSED_MESSAGE = 'Your account cannot be closed yet: something is still owed or held. Settle what is listed, then ask again.';
export const ACCOUNT_CLOSED_MESSAGE =
  'Your account is closed and the processing of your personal data has stopped. You have been signed out. The records the law requires stay on our log for 5 years, as the privacy notice says.';

/** An event as the member's export carries it: credentials redacted, as every answer does. */
function exportedEvent(event: RecordedEvent) {
  return { stream: event.stream, revision: event.revision, position: event.position, type: event.type, data: redactEventData(event.data), createdAt: event.createdAt };
}

/**
 * The data privacy routes (RA 10173): the notice (public), the member's consent to it, the
 * member's data as one file (access and portability), and the request to close the account
 * (erasure and blocking).
 */
export function privacyRoutes(deps: ApiDeps): Router[] {
  const { store, readModels, progress, tokens } = deps;
  const notice = new Router({ prefix: '/api/privacy-notice' });
  notice.get(
    '/',
    endpoint({ summary: 'The privacy notice in force (RA 10173): its version and text', public: true, answer: answers.privacyNoticeAnswer }, async (ctx) => {
      ctx.body = privacyNotice(await readCompanyDetails(deps), noticeVersionOf(deps));
    }),
  );

  const user = new Router({ prefix: '/api/user' });
  const borrower = authenticate(tokens, readModels, ['borrower']);
  // The withdrawal hold ends by the business clock, the one the withdrawal routes judge it on.
  const userAnswer = async (doc: MemberDoc | null) => {
    if (!doc) throw new ApiError(404, 'MEMBER_NOT_FOUND', 'Account not found');
    return toUserAnswer(doc, (fileId) => deps.signedFileUrls.urlFor(fileId), await deps.businessClock.businessNow(), noticeVersionOf(deps));
  };

  user.post(
    '/consent',
    borrower,
    // Consent is the member's own to give: a revoked token is refused on the member's stream, whatever the read models say.
    memberOnWriteSide(store),
    endpoint(
      { summary: 'Accept the privacy notice of this version (it must be the one in force)', body: consentBody, answer: answers.userAnswer, refusals: ['409 NOTICE_CHANGED', '403 ACCOUNT_SUSPENDED'] },
      async (ctx, { body }) => {
        const memberId = callerOf(ctx).id;
        const now = deps.now().toISOString();
        const result = await handleCommand(
          store,
          streams.member(memberId),
          memberDecider,
          { type: 'GiveConsent', memberId, noticeVersion: body.noticeVersion, currentVersion: noticeVersionOf(deps), now },
          metadataOf(ctx, memberId),
        );
        ctx.body = await readAfterWrite(ctx, progress, result.position, async () => userAnswer(await readModels.member(memberId)));
      },
    ),
  );

  /**
   * Everything Honeylend holds about the member, as one JSON file downloaded at once: the profile,
   * the documents uploaded, loans with their repayments, withdrawals, notifications, and every
   * event of their own streams (credentials redacted).
   */
  user.get(
    '/export',
    borrower,
    endpoint({ summary: 'Download my data: everything held about the member, as one JSON file', answer: answers.dataExportAnswer }, async (ctx) => {
      const memberId = callerOf(ctx).id;
      const now = deps.now();
      const [doc, loans, withdrawals, notifications, memberEvents] = await Promise.all([
        readModels.member(memberId),
        readModels.loansOfMember(memberId),
        readModels.withdrawalsOfMember(memberId),
        readModels.notificationsOfMember(memberId, 10_000),
        store.readStream(streams.member(memberId)),
      ]);
      const loanIds = [...new Set([...loans.map((loan) => loan.id), ...memberEvents.flatMap((event) => (event.type === 'LoanApplicationOpened' ? [String(event.data.loanId)] : []))])];
      const loanEvents = (await Promise.all(loanIds.map((loanId) => store.readStream(streams.loan(loanId))))).flat();
      const events = [...memberEvents, ...loanEvents].sort((a, b) => a.position - b.position);
      const setDocuments = new Map(Object.entries(doc?.documents ?? {}).flatMap(([kind, fileId]) => (fileId ? [[fileId, kind] as const] : [])));
      const documents = memberEvents
        .filter((event) => event.type === 'DocumentUploaded')
        .map((event) => ({
          fileId: String(event.data.fileId),
          contentType: String(event.data.contentType),
          sizeBytes: Number(event.data.sizeBytes),
          uploadedAt: String(event.data.uploadedAt),
          usedAs: setDocuments.get(String(event.data.fileId)) ?? null,
        }));
      const repayments = loanEvents
        .filter((event) => event.type === 'RepaymentReceived')
        .map((event) => ({
          loanId: String(event.data.loanId),
          repaymentId: String(event.data.repaymentId),
          receiptNumber: String(event.data.receiptNumber),
          amount: Number(event.data.amountCentavos) / 100,
          channel: String(event.data.channel),
          valueDate: String(event.data.valueDate),
          receivedAt: String(event.data.receivedAt),
          reversed: loanEvents.some((other) => other.type === 'RepaymentReversed' && other.data.repaymentId === event.data.repaymentId),
        }));
      ctx.set('Content-Disposition', `attachment; filename="honeylend-my-data-${now.toISOString().slice(0, 10)}.json"`);
      const today = await deps.businessClock.today();
      ctx.body = {
        exportedAt: now.toISOString(),
        about: 'Everything Honeylend holds about you (RA 10173 sec. 16(c) and 18: access and data portability). Passwords are stored only as one-way hashes and are not included.',
        profile: doc ? await userAnswer(doc) : null,
        documents,
        loans: loans.map((loan) => toLoanAnswer(loan, today)),
        repayments,
        withdrawals: withdrawals.map(toWithdrawalAnswer),
        notifications: notifications.map(toNotificationAnswer),
        events: events.map(exportedEvent),
      };
    }),
  );

  /**
   * Close the account and stop processing (RA 10173 sec. 16(e)). The request is always recorded;
   * with nothing owed or held it closes the account at once: every session ends (this token is
   * revoked), sign-in is refused, and the read models mask the member's personal data. With
   * obligations open: 409 CLOSURE_OBLIGATIONS_OPEN listing them.
   */
  user.post(
    '/closure-request',
    borrower,
    endpoint(
      {
        summary: 'Close my account and stop processing my data (refused, with the reasons, while anything is owed or held)',
        body: closureRequestBody,
        answer: answers.accountClosedAnswer,
        refusals: ['409 CLOSURE_OBLIGATIONS_OPEN'],
      },
      async (ctx, { body }) => {
        const caller = callerOf(ctx);
        const memberId = caller.id;
        const now = deps.now().toISOString();
        const result = await handleCommand(store, streams.member(memberId), memberDecider, { type: 'RequestClosure', memberId, reason: body.reason, tokenVersion: caller.tokenVersion, now }, metadataOf(ctx, memberId));
        const requested = result.events.find((event) => event.type === 'MemberClosureRequested');
        const obligations: ClosureObligation[] = requested?.type === 'MemberClosureRequested' ? requested.data.obligations : [];
        await readAfterWrite(ctx, progress, result.position, async () => null);
        if (obligations.length > 0) {
          throw new ApiError(409, 'CLOSURE_OBLIGATIONS_OPEN', CLOSURE_REFUSED_MESSAGE, { obligations: obligations.map(toClosureObligationAnswer) });
        }
        await tokens.revoked?.revoke(caller.tokenId, caller.tokenExpiresAt);
        await deps.revokeSessions?.(memberId, 'account-closed');
        ctx.status = 200;
        ctx.body = {
          success: true,
          message: ACCOUNT_CLOSED_MESSAGE,
          closure: toClosureAnswer({ requestedAt: now, reason: body.reason, outcome: 'closed', closedAt: now, obligations: [] }),
        };
      },
    ),
  );

  return [notice, user];
}

/** What a closed member hears at sign-in (after the right password: the same 401 as anyone otherwise). */
export function accountClosedRefusal(closedAt: string): ApiError {
  return new ApiError(
    403,
    'ACCOUNT_CLOSED',
    `This account was closed at your request on ${closedAt.slice(0, 10)} and can no longer sign in. For anything about your data, contact the data protection officer named in the privacy notice.`,
    undefined,
    { accountStatus: 'closed' },
  );
}
