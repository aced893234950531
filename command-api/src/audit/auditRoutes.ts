import Router from '@koa/router';
import type { Context, Next } from 'koa';
import { z } from 'zod';
import {
  UNMASK_MINUTES,
  memberOfEvent,
  streams,
  type AuditCheckpointsAnswer,
  type AuditEventsAnswer,
  type AuditLogEvent,
  type AuditStreamAnswer,
  type BookAnswer,
  type LatestVerificationAnswer,
  type UnmaskAnswer,
} from '@honeylend/contracts';
import { isSignedByTrustedKey, publicKeyText, readStoredCheckpoints } from '@honeylend/eventstore';
import { staffOnWriteSide } from '../staff/access/staffOnWriteSide.js';
import { authenticate } from '../platform/sessions/authenticate.js';
import type { Role } from '../platform/sessions/tokens.js';
import { handleCommand } from '../platform/commands/commandHandler.js';
import { ApiError } from '../platform/errors/apiError.js';
import { callerOf, metadataOf } from '../platform/context/context.js';
import type { AuditApiDeps } from './auditDeps.js';
import { allowListed } from '../platform/allowList/allowList.js';
import { readAfterWrite } from '../platform/consistency/readAfterWrite.js';
import { auditAccessDecider, recordExport } from '../staff/personalData/auditAccessLog.js';
import { STREAM_NAME, STREAM_NAME_MESSAGE, auditEventsQuery, auditExportQuery, filtersAsText, matchingEvents, positionAtTime, toAuditLogEvent } from './auditQueries.js';
import { exportBody } from './exportEvents.js';
import { foundByMaskedData, personalDataView } from '../staff/personalData/personalDataView.js';
import { refuseAllowListStream } from '../staff/allowedIps/allowListReaders.js';
import { foldAsOf } from './streamFolds.js';
import { endpoint } from '../platform/http/endpoint.js';
import { pathParam } from '../platform/http/pathId.js';
import * as answers from '../platform/http/answerSchemas.js';

const AUDITORS: Role[] = ['auditor', 'superadmin'];
/** The History drawer of every admin reads one stream's history from here too (issue 16 item 6). */
const STREAM_READERS: Role[] = ['auditor', 'superadmin', 'admin'];

const MESSAGES = {
  asOf: 'asOf is a revision (0, 1, 2…) or a date and time, e.g. 2026-11-23T08:00:00+08:00',
  bookAsOf: 'asOf is a date (2026-11-23: the end of that day in Manila) or a date and time',
  reason: 'Say why you need to see this member (at least 5 characters)',
  memberId: 'Choose a member',
  position: 'A position is a whole number from 1',
} as const;

export const streamQuery = z.object({
  asOf: z
    .string({ error: MESSAGES.asOf })
    .refine((value) => /^\d{1,9}$/.test(value) || z.iso.datetime({ offset: true }).safeParse(value).success, MESSAGES.asOf)
    .optional(),
});

export const bookQuery = z.object({
  asOf: z.string({ error: MESSAGES.bookAsOf }).refine((value) => z.iso.date().safeParse(value).success || z.iso.datetime({ offset: true }).safeParse(value).success, MESSAGES.bookAsOf),
});

const positionField = z.number({ error: MESSAGES.position }).int(MESSAGES.position).min(1, MESSAGES.position).max(Number.MAX_SAFE_INTEGER, MESSAGES.position);

export const verifyBody = z
  .strictObject({ from: positionField.optional(), to: positionField.optional() })
  .refine((body) => body.from === undefined || body.to === undefined || body.from <= body.to, { message: 'to must not be before from', path: ['to'] });

export const unmaskBody = z.strictObject({
  memberId: z.uuid({ error: MESSAGES.memberId }),
  reason: z.string({ error: MESSAGES.reason }).trim().min(5, MESSAGES.reason).max(500, 'Keep the reason under 500 characters'),
});

const JOB_ID = /^verify-[0-9a-f-]{36}$/;
/** How many events one page of the log may look at before answering with what it found and a cursor to go on. */
const EVENTS_SCAN_BUDGET = 20_000;

/** An allowed address, then a staff token of one of `roles`; an unmasking or a verification also checked on the event store (staffOnWriteSide). */
function auditAccess(deps: AuditApiDeps, roles: Role[]) {
  const allowed = allowListed(deps);
  const staff = authenticate(deps.tokens, deps.readModels, roles);
  const current = staffOnWriteSide(deps.store);
  return (ctx: Context, next: Next) => allowed(ctx, () => staff(ctx, () => current(ctx, next)));
}

/** A date alone is the end of that day in Manila. */
function endOf(asOf: string): string {
  return /^\d{4}-\d{2}-\d{2}$/.test(asOf) ? new Date(`${asOf}T23:59:59.999+08:00`).toISOString() : new Date(asOf).toISOString();
}

/**
 * The auditor's API (issue 16 item 4), for auditors and the main admin, behind the admin IP
 * allow-list: the log with combined filters in cursor pages, a stream as of a revision or time,
 * the book as of a date, exports with each event's hash, the signed checkpoints, and verification.
 * Auditors see members' personal data masked unless they unmasked the member (an event);
 * every export is an event.
 */
export function auditRoutes(deps: AuditApiDeps): Router {
  const { store } = deps;
  const router = new Router({ prefix: '/api/audit' });
  const auditors = auditAccess(deps, AUDITORS);

  router.get(
    '/events',
    auditors,
    endpoint({ summary: 'The log, filtered (stream, type, actor, time), a page at a time', query: auditEventsQuery, answer: answers.auditEventsAnswer }, async (ctx, { query }) => {
      const view = await personalDataView(ctx, deps);
      const events: AuditLogEvent[] = [];
      const scan = { last: query.from ?? 0, count: 0 };
      let next: number | null = null;
      for await (const event of matchingEvents(store, query, { scanned: scan, maxScanned: EVENTS_SCAN_BUDGET })) {
        if (foundByMaskedData(view, query.stream, event)) continue;
        events.push(view.event(toAuditLogEvent(event), memberOfEvent(event)));
        if (events.length === query.limit) {
          next = event.position;
          break;
        }
      }
      // A page that looked at its whole budget without filling up goes on from where it stopped.
      if (next === null && scan.count >= EVENTS_SCAN_BUDGET) next = scan.last;
      const answer: AuditEventsAnswer = { events, next, scannedTo: scan.last, head: await store.headPosition() };
      ctx.body = answer;
    }),
  );

  router.get(
    '/streams/:stream',
    auditAccess(deps, STREAM_READERS),
    endpoint(
      {
        summary: "One stream as of a revision or time: its events and folded state (the IP allow-list's for the main admin and auditors only)",
        query: streamQuery,
        answer: answers.auditStreamAnswer,
        refusals: ['404 STREAM_NOT_FOUND', '404 REVISION_NOT_FOUND', '403 MAIN_ADMIN_ONLY'],
      },
      async (ctx, { query: { asOf } }) => {
        const stream = String(pathParam(ctx, 'stream') ?? '');
        if (!STREAM_NAME.test(stream)) throw new ApiError(400, 'VALIDATION_FAILED', STREAM_NAME_MESSAGE, { fields: { stream: STREAM_NAME_MESSAGE } });
        refuseAllowListStream(ctx, stream);
        const recorded = store.readChain ? await store.readChain({ stream, limit: 1_000_000 }) : await store.readStream(stream);
        const view = await personalDataView(ctx, deps);
        if (recorded.length === 0 || recorded.some((event) => foundByMaskedData(view, stream, event))) throw new ApiError(404, 'STREAM_NOT_FOUND', `No events in stream ${stream}`);
        let revision = recorded.length - 1;
        if (asOf !== undefined && /^\d+$/.test(asOf)) {
          revision = Number(asOf);
          if (revision >= recorded.length) throw new ApiError(404, 'REVISION_NOT_FOUND', `Stream ${stream} has revisions 0 to ${recorded.length - 1}`);
        } else if (asOf !== undefined) {
          const time = new Date(asOf).toISOString();
          revision = recorded.filter((event) => event.createdAt <= time).length - 1;
        }
        const memberId = stream.startsWith('member-') ? stream.slice('member-'.length) : (recorded.map((event) => memberOfEvent(event)).find((id) => id !== null) ?? null);
        const folded = foldAsOf(stream, recorded, revision, view.masking && !(memberId !== null && view.isUnmasked(memberId)));
        const last = revision >= 0 ? recorded[revision] : null;
        const answer: AuditStreamAnswer = {
          stream,
          aggregate: folded.aggregate,
          revisions: recorded.length,
          asOf: { revision, position: last?.position ?? null, createdAt: last?.createdAt ?? null },
          events: recorded.slice(0, revision + 1).map((event) => view.event(toAuditLogEvent(event), memberOfEvent(event))),
          state: folded.state,
          previous: folded.previous,
        };
        ctx.body = answer;
      },
    ),
  );

  router.get(
    '/book',
    auditors,
    endpoint({ summary: 'The book as of a date (202 with a job while it is being folded)', query: bookQuery, answer: answers.bookAnswer, refusals: ['500 BOOK_FAILED'] }, async (ctx, { query: { asOf } }) => {
      const time = endOf(asOf);
      const position = await positionAtTime(store, time);
      const cached = await deps.audit.jobs.cachedBook(position);
      let answer: BookAnswer;
      if (cached) {
        answer = { status: 'ready', asOf: time, position, book: cached };
      } else {
        const job = await deps.audit.jobs.startBook(position);
        if ('failed' in job) throw new ApiError(500, 'BOOK_FAILED', 'The book could not be folded this time. Ask for it again to start over; the API log says what went wrong.');
        ctx.status = 202;
        answer = { status: 'running', asOf: time, position, jobId: job.jobId, progress: job.progress };
      }
      ctx.body = answer;
    }),
  );

  router.get(
    '/export',
    auditors,
    endpoint({ summary: 'Export the log, filtered, as NDJSON or CSV (recorded on the log)', query: auditExportQuery, answer: { file: ['application/x-ndjson', 'text/csv'] } }, async (ctx, { query }) => {
      const view = await personalDataView(ctx, deps);
      const to = query.to ?? (await store.headPosition());
      const range = { from: (query.from ?? 0) + 1, to };
      await recordExport(ctx, deps, { range, filters: filtersAsText(query), format: query.format, masked: view.masking });
      const day = deps.now().toISOString().slice(0, 10);
      ctx.set('Content-Disposition', `attachment; filename="honeylend-log-${day}-${range.from}-${to}.${query.format}"`);
      ctx.type = query.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8';
      const shown = async function* () {
        for await (const event of matchingEvents(store, { ...query, to })) if (!foundByMaskedData(view, query.stream, event)) yield event;
      };
      ctx.body = exportBody(shown(), (event) => view.event(toAuditLogEvent(event), memberOfEvent(event)), query.format);
    }),
  );

  router.get(
    '/checkpoints',
    auditors,
    endpoint({ summary: 'The signed checkpoints of the hash chain and the trusted keys', answer: answers.auditCheckpointsAnswer }, async (ctx) => {
      const trusted = deps.audit.trustedKeys;
      const answer: AuditCheckpointsAnswer = {
        publicKeys: trusted.map((key) => publicKeyText(key)),
        checkpoints: (await readStoredCheckpoints(store)).map((checkpoint) => ({ ...checkpoint, trusted: isSignedByTrustedKey(checkpoint, trusted) })),
      };
      ctx.body = answer;
    }),
  );

  router.post(
    '/verify',
    auditors,
    endpoint({ summary: 'Start verifying the hash chain (a range, or all of it)', body: verifyBody, status: 202, answer: answers.verifyStartedAnswer }, async (ctx, { body: range }) => {
      const answer = await deps.audit.jobs.startVerify(range);
      ctx.status = 202;
      ctx.body = { jobId: answer.jobId };
    }),
  );

  router.get(
    '/verify/:jobId',
    auditors,
    endpoint({ summary: 'A verification: running, passed or failed (with the first bad event)', answer: answers.verifyJobAnswer, refusals: ['404 JOB_NOT_FOUND'] }, async (ctx) => {
      const jobId = String(pathParam(ctx, 'jobId') ?? '');
      const answer = JOB_ID.test(jobId) ? await deps.audit.jobs.verifyStatus(jobId) : null;
      if (!answer) throw new ApiError(404, 'JOB_NOT_FOUND', 'No such verification');
      ctx.body = answer;
    }),
  );

  /** The last verification to finish (null before the first): what the workspace's chain badge shows. */
  router.get(
    '/verifications/latest',
    auditors,
    endpoint({ summary: 'The last verification to finish', answer: answers.latestVerificationAnswer }, async (ctx) => {
      const answer: LatestVerificationAnswer = { latest: await deps.audit.jobs.latestVerification() };
      ctx.body = answer;
    }),
  );

  /** One member's personal data for this auditor, for UNMASK_MINUTES, with the reason on the log. */
  router.post(
    '/unmask',
    auditAccess(deps, ['auditor']),
    endpoint(
      { summary: "Unmask one member's personal data for a while, with a reason on the log", body: unmaskBody, status: 201, answer: answers.unmaskAnswer, refusals: ['404 MEMBER_NOT_FOUND'] },
      async (ctx, { body: input }) => {
        const caller = callerOf(ctx);
        const member = await deps.readModels.member(input.memberId);
        if (!member) throw new ApiError(404, 'MEMBER_NOT_FOUND', 'Member not found');
        const now = deps.now();
        const result = await handleCommand(
          store,
          streams.auditAccess(caller.id),
          auditAccessDecider,
          { type: 'Unmask', auditorId: caller.id, memberId: input.memberId, reason: input.reason, now: now.toISOString() },
          metadataOf(ctx, caller.id),
        );
        await readAfterWrite(ctx, deps.progress, result.position, async () => undefined);
        const { fullName, phone, email, address, referenceName, referencePhone, bankName, bankAccountNumber } = member;
        const answer: UnmaskAnswer = {
          memberId: input.memberId,
          unmaskedUntil: new Date(now.getTime() + UNMASK_MINUTES * 60_000).toISOString(),
          member: { fullName, phone, email, address, referenceName, referencePhone, bankName, bankAccountNumber },
        };
        ctx.status = 201;
        ctx.body = answer;
      },
    ),
  );

  return router;
}
