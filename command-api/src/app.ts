import { createRequire } from 'node:module';
import Koa, { type Context, type Middleware, type Next } from 'koa';
import type Router from '@koa/router';
import { koaBody } from 'koa-body';
import { DEFAULT_MONTHLY_RATE_BPS } from '@honeylend/contracts';
import { ApiError } from './platform/errors/apiError.js';
import type { ApiDeps } from './platform/context/context.js';
import type { AuditDeps } from './audit/auditDeps.js';
import { errorHandling } from './platform/http/errorHandling.js';
import { requestLog } from './platform/http/requestLog.js';
import { securityHeaders } from './platform/http/securityHeaders.js';
import { idempotency } from './platform/http/idempotency.js';
import { jsonBodyGuard } from './platform/http/jsonBodyGuard.js';
import { authRoutes } from './identity/authRoutes.js';
import { accountSecurityRoutes } from './identity/accountSecurityRoutes.js';
import { healthRoutes } from './health/healthRoutes.js';
import { profileRoutes } from './members/profileRoutes.js';
import { staticWeb } from './platform/web/staticWeb.js';
import { jsonCompression } from './platform/http/jsonCompression.js';
import { uploadRoutes } from './members/documents/uploadRoutes.js';
import { loanRoutes } from './lending/loanRoutes.js';
import { withdrawalRoutes } from './wallet/withdrawalRoutes.js';
import { notificationRoutes } from './members/notifications/notificationRoutes.js';
import { devOutboxRoutes, ratesRoutes } from './rates/ratesRoutes.js';
import { staffRouters } from './staffRouters.js';
import { adminAccess } from './staff/access/adminAccess.js';
import { auditRoutes } from './audit/auditRoutes.js';
import { resolveClientAddress } from './platform/allowList/allowList.js';
import { borrowerServicingRoutes } from './servicing/borrowerServicingRoutes.js';
import { paymentWebhookRoutes } from './servicing/paymentWebhookRoutes.js';
import { businessDateRoutes } from './servicing/businessDateRoutes.js';
import { apiReferenceRoutes } from './platform/openapi/apiReferenceRoutes.js';

import { companyRoutes } from './company/companyRoutes.js';
import { disclosureRoutes } from './lending/disclosure/disclosureRoutes.js';
import { privacyRoutes } from './members/privacy/privacyRoutes.js';

/** The version the API reference names: the command API package's. */
const API_VERSION = (createRequire(import.meta.url)('../package.json') as { version: string }).version;

/** Everything the app's routes need: every capability's common deps and the auditor's jobs. */
export type AppDeps = ApiDeps & AuditDeps;

export interface AppOptions {
  /** Folder of the built web app; when given, it is served at / with the client router's fallback. */
  webRoot?: string;
  /** Flat interest per month for new loans, in basis points (250 = 2.5 %). */
  monthlyRateBps?: number;
  /** Mounts GET /api/dev/outbox (the development SMS outbox); never in production. */
  devOutbox?: boolean;
  /** Mounts GET/POST /api/dev/business-date (moving the business date forward); never in production. */
  devBusinessDate?: boolean;
}

export function createApp(deps: AppDeps, options: AppOptions = {}): Koa {
  const app = new Koa();
  // Every route sees the real client address (behind a TRUSTED_PROXIES proxy too): the login
  // throttle keys on it and every event's metadata records it.
  app.use(resolveClientAddress(deps));
  app.use(requestLog(deps.logger));
  app.use(securityHeaders());
  app.use(errorHandling(deps.logger));
  app.use(async (ctx, next) => {
    // Answers about accounts and money — errors included — must never be cached by a browser or a proxy.
    // Set before the handler runs: a thrown error skips anything after `next()`.
    if (ctx.path.startsWith('/api/')) ctx.set('Cache-Control', 'no-store');
    await next();
  });
  app.use(jsonCompression());
  // includeUnparsed keeps the exact text as ctx.request.rawBody: the payment webhook's signature is over it.
  app.use(koaBody({ jsonLimit: '100kb', multipart: false, urlencoded: false, text: false, jsonStrict: true, includeUnparsed: true }));
  app.use(jsonBodyGuard());
  app.use(idempotency(deps, adminAccess(deps)));

  for (const router of [
    healthRoutes(deps),
    ...staffRouters(deps),
    auditRoutes(deps),
    authRoutes(deps),
    ...accountSecurityRoutes(deps),
    profileRoutes(deps),
    ...privacyRoutes(deps),
    uploadRoutes(deps),
    loanRoutes(deps, { monthlyRateBps: options.monthlyRateBps ?? DEFAULT_MONTHLY_RATE_BPS }),
    disclosureRoutes(deps),
    borrowerServicingRoutes(deps),
    ...companyRoutes(deps),
    paymentWebhookRoutes(deps),
    withdrawalRoutes(deps),
    notificationRoutes(deps),
    ratesRoutes(deps),
    ...(options.devOutbox ? [devOutboxRoutes(deps)] : []),
    ...(options.devBusinessDate ? [businessDateRoutes(deps)] : []),
    // Reads the route table of this very app (the routers above and itself) when first asked.
    apiReferenceRoutes(app, { title: 'Honeylend API', version: API_VERSION }),
  ]) {
    app.use(mounted(router));
  }

  app.use(async (ctx, next) => {
    if (ctx.path === '/api' || ctx.path.startsWith('/api/')) {
      if (ctx.status === 405) throw new ApiError(405, 'METHOD_NOT_ALLOWED', `${ctx.method} is not allowed on ${ctx.path}`);
      throw new ApiError(404, 'NOT_FOUND', `No such endpoint: ${ctx.method} ${ctx.path}`);
    }
    await next();
  });
  if (options.webRoot) app.use(staticWeb(options.webRoot));
  return app;
}

/** A router's middleware as it is: it answers a promise (koa-compose's), where Koa's Middleware type says `any`. */
type RouterDispatch = (ctx: Context, next: Next) => Promise<unknown>;

/**
 * A router's routes, then its answer to a method it lacks (405), entered only for paths under its
 * prefix (matched as the router matches: without regard to case): none of its routes can match any
 * other path, and with some twenty routers in a row, each matching every request against all its
 * routes was a tenth of a read's CPU. A router without a prefix sees every request. The 405 does
 * not change: it comes from the routes matched by any router, and the first router (prefix /api)
 * still sees every API path.
 */
function mounted(router: Router): Middleware {
  const routes = router.routes() as RouterDispatch;
  const methods = router.allowedMethods({ throw: false }) as RouterDispatch;
  const prefix = router.opts.prefix;
  const under = prefix ? new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:/|$)`, 'i') : null;
  const middleware: Middleware & { router?: Router } = (ctx, next) => (under && !under.test(ctx.path) ? next() : routes(ctx, () => methods(ctx, next)));
  // As router.routes() does: whoever reads the app's route table (the access-matrix and fuzzing
  // checks) finds each router on the middleware that mounts it.
  middleware.router = router;
  return middleware;
}
