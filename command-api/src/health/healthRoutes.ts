import Router from '@koa/router';
import type { ApiDeps } from '../platform/context/context.js';
import { endpoint } from '../platform/http/endpoint.js';
import * as answers from '../platform/http/answerSchemas.js';
import { readCompanyDetails } from '../company/companyRoutes.js';

const CHECK_TIMEOUT_MS = 1500;

/**
 * The check's answer, or undefined when it fails or takes longer than `timeoutMs`. A check given
 * up on is cancelled through its signal (the event store cancels its read on the server), so a
 * probe polling a stalled store does not pile up calls that never end.
 */
async function within<T>(check: (signal: AbortSignal) => Promise<T>, timeoutMs = CHECK_TIMEOUT_MS): Promise<T | undefined> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const givenUp = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const reason = new Error(`no answer within ${timeoutMs} ms`);
      controller.abort(reason);
      reject(reason);
    }, timeoutMs);
  });
  try {
    return await Promise.race([check(controller.signal), givenUp]);
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

export function healthRoutes(deps: ApiDeps): Router {
  const router = new Router({ prefix: '/api' });

  /**
   * Liveness: the process serves HTTP. It also says whether the operator published the lender's
   * details (SEC MC 19 s.2019): without them borrower pages name no lender, which an operator must fix.
   */
  router.get(
    '/health',
    endpoint({ summary: "Liveness: the process serves HTTP, and whether the lender's details are published", public: true, answer: answers.healthAnswer }, async (ctx) => {
      const company = await within(() => readCompanyDetails(deps));
      const operatorDetails = company === undefined ? 'unknown' : company ? 'set' : 'missing';
      ctx.body = {
        status: 'ok',
        operatorDetails,
        ...(operatorDetails === 'missing' ? { warnings: ["The operator details are missing: set the company's name, SEC registration and Certificate of Authority numbers in Settings → Company."] } : {}),
      };
    }),
  );

  /**
   * Readiness: the event store and Redis answer; how far the read models are behind the log, in
   * the store's position unit (events on PostgreSQL and PGlite, bytes of log on EventStoreDB).
   */
  router.get(
    '/ready',
    endpoint({ summary: 'Readiness: the event store and Redis answer, and how far the read models are behind', public: true, answer: answers.readyAnswer }, async (ctx) => {
      const [eventStore, redis] = await Promise.all([within((signal) => deps.store.ping({ signal }).then(() => true)), within(() => deps.redis.ping().then(() => true))]);
      let projectionLag: number | null = null;
      if (eventStore && redis) {
        const [head, checkpoint] = await Promise.all([within((signal) => deps.store.headPosition({ signal })), within(() => deps.redis.get(deps.readModels.keys.checkpoint))]);
        if (head !== undefined && checkpoint !== undefined) projectionLag = Math.max(0, head - Number(checkpoint ?? 0));
      }
      const ready = eventStore === true && redis === true;
      ctx.status = ready ? 200 : 503;
      ctx.body = {
        status: ready ? 'ready' : 'unavailable',
        eventStore: eventStore ? 'ok' : 'unavailable',
        eventStoreKind: deps.store.kind,
        redis: redis ? 'ok' : 'unavailable',
        projectionLag,
        projectionLagUnit: deps.store.positionUnit,
      };
    }),
  );

  return router;
}
