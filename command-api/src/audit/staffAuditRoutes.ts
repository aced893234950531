import Router from '@koa/router';
import { z } from 'zod';
import { memberOfEvent, toAuditEventAnswer } from '@honeylend/contracts';
import { InvalidPosition } from '@honeylend/eventstore';
import { ApiError } from '../platform/errors/apiError.js';
import type { ApiDeps } from '../platform/context/context.js';
import { adminAccess } from '../staff/access/adminAccess.js';
import { foundByMaskedData, personalDataView } from '../staff/personalData/personalDataView.js';
import { isAllowListStream, readsAllowList, refuseAllowListStream } from '../staff/allowedIps/allowListReaders.js';
import { endpoint } from '../platform/http/endpoint.js';
import { pathParam } from '../platform/http/pathId.js';
import * as answers from '../platform/http/answerSchemas.js';

/** Stream names are ours (member-<uuid>, phone-+63…, admin-username-<email>, settings-admin-ips): no spaces or control characters. */
const STREAM_NAME = /^[a-z][a-z0-9-]*-[\w.@+:-]{1,200}$/i;

const INVALID_FROM = 'from is not a position of this event log: start from 0, or from a next value this endpoint answered';

export const eventsQuery = z.object({
  from: z
    .string({ error: 'from is a position: a whole number from 0' })
    .regex(/^\d{1,15}$/, 'from is a position: a whole number from 0')
    .transform(Number)
    .optional()
    .transform((value) => value ?? 0),
  limit: z
    .string({ error: 'limit is a whole number from 1 to 1000' })
    .regex(/^\d{1,4}$/, 'limit is a whole number from 1 to 1000')
    .transform(Number)
    .pipe(z.number().min(1, 'limit is a whole number from 1 to 1000').max(1000, 'limit is a whole number from 1 to 1000'))
    .optional()
    .transform((value) => value ?? 100),
});

/**
 * Design §7's auditor endpoints: one stream's history, and the global log in pages. Every event
 * shows who acted and from where; password hashes are redacted (and no event holds an OTP code).
 */
export function staffAuditRoutes(deps: ApiDeps): Router {
  const router = new Router({ prefix: '/api/admin' });
  router.use(adminAccess(deps));

  router.get(
    '/audit/:stream',
    endpoint({ summary: "One stream's events (the IP allow-list's for the main admin and auditors only)", answer: answers.streamEventsAnswer, refusals: ['404 STREAM_NOT_FOUND', '403 MAIN_ADMIN_ONLY'] }, async (ctx) => {
      const stream = String(pathParam(ctx, 'stream') ?? '');
      if (!STREAM_NAME.test(stream)) throw new ApiError(400, 'VALIDATION_FAILED', 'Name a stream, e.g. member-<id>', { fields: { stream: 'Name a stream, e.g. member-<id>' } });
      refuseAllowListStream(ctx, stream);
      const events = await deps.store.readStream(stream);
      const view = await personalDataView(ctx, deps);
      if (events.length === 0 || events.some((event) => foundByMaskedData(view, stream, event))) throw new ApiError(404, 'STREAM_NOT_FOUND', `No events in stream ${stream}`);
      ctx.body = { stream, events: events.map((event) => view.event(toAuditEventAnswer(event), memberOfEvent(event))) };
    }),
  );

  /**
   * `from` is exclusive (the last position seen); `next` is where the following page starts, null at
   * the end. The IP allow-list's events are left out for a plain admin, so a page may hold fewer
   * than `limit` events and still have a next one.
   */
  router.get(
    '/events',
    endpoint(
      { summary: 'The whole log, a page at a time (`from` exclusive; the IP allow-list only for the main admin and auditors)', query: eventsQuery, answer: answers.eventsPageAnswer },
      async (ctx, { query: { from, limit } }) => {
        const events = await deps.store.readAll({ from, limit }).catch((error: unknown) => {
          // Positions are the store's own (byte offsets on EventStoreDB): only 0 and those it answered are places in its log.
          if (error instanceof InvalidPosition) throw new ApiError(400, 'VALIDATION_FAILED', INVALID_FROM, { fields: { from: INVALID_FROM } });
          throw error;
        });
        const view = await personalDataView(ctx, deps);
        const readable = readsAllowList(ctx) ? events : events.filter((event) => !isAllowListStream(event.stream));
        ctx.body = { events: readable.map((event) => view.event(toAuditEventAnswer(event), memberOfEvent(event))), next: events.length === limit ? events.at(-1)!.position : null };
      },
    ),
  );

  return router;
}
