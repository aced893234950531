import type { Context, Next } from 'koa';
import type { AllowedIpDoc } from '@honeylend/contracts';
import { authenticate } from '../../auth/authenticate.js';
import { writeSideActor } from '../../auth/writeSideActor.js';
import { ApiError } from '../../http/apiError.js';
import { callerOf, type ApiDeps } from '../../http/context.js';
import { clientAddress } from './clientAddress.js';
import { rulesCover } from './addressRules.js';
import { allowListOfRecord } from './allowListOfRecord.js';

/** Staff who change things. */
export const ADMIN_ROLES = ['admin', 'superadmin'] as const;
/** Everyone who may sign in to the management side: admins, and auditors who only read (issue 16). */
export const STAFF_ROLES = [...ADMIN_ROLES, 'auditor'] as const;
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The allow-list as the projections keep it (an empty list means every address may reach the
 * panel); without that document, the list the event log records — never "no list".
 */
export async function readAllowedIps(deps: ApiDeps): Promise<AllowedIpDoc[]> {
  const raw = await deps.redis.get(deps.readModels.keys.allowedIps);
  return raw ? (JSON.parse(raw) as AllowedIpDoc[]) : allowListOfRecord(deps.store);
}

/**
 * Resolves the client's address (see clientAddress) and makes it the request's `ip`, so the
 * login throttle and every event's metadata record the real client, not the proxy. Koa's own
 * `app.proxy` stays off: it would believe any X-Forwarded-For, from anyone.
 */
export function resolveClientAddress(deps: ApiDeps) {
  const trusted = deps.trustedProxies ?? [];
  return async (ctx: Context, next: Next) => {
    ctx.request.ip = clientAddress(ctx.req.socket.remoteAddress, ctx.get('X-Forwarded-For') || undefined, trusted);
    await next();
  };
}

/** Whether staff may act from `address`: an empty list lets every address in, otherwise a rule must cover it. */
export function allowListCovers(rules: readonly AllowedIpDoc[], address: string): boolean {
  return rules.length === 0 || rulesCover(rules.map((rule) => rule.ipAddress), address);
}

/**
 * Whether staff may reach the management side from `address` (already resolved by clientAddress):
 * the one test every staff channel applies — the admin routes, the admin sign-in, staff reads of
 * /api/files and staff sockets.
 */
export async function addressAllowed(deps: ApiDeps, address: string): Promise<boolean> {
  return allowListCovers(await readAllowedIps(deps), address);
}

export function addressRefused(address: string): ApiError {
  return new ApiError(403, 'IP_NOT_ALLOWED', `The management panel cannot be reached from your address (${address}).`, { clientAddress: address });
}

/** Refuses every address outside the IP allow-list (spec §6), before anything else is looked at. */
export function allowListed(deps: ApiDeps) {
  const resolve = resolveClientAddress(deps);
  return (ctx: Context, next: Next) =>
    resolve(ctx, async () => {
      if (!(await addressAllowed(deps, ctx.ip))) throw addressRefused(ctx.ip);
      await next();
    });
}

/** An auditor reads everything and changes nothing: every other method is refused before a handler sees it. */
export async function readOnlyForAuditors(ctx: Context, next: Next): Promise<void> {
  if (callerOf(ctx).role === 'auditor' && !READ_METHODS.has(ctx.method)) {
    throw new ApiError(403, 'READ_ONLY', 'Auditors can read everything but change nothing.');
  }
  await next();
}

/**
 * Every /api/admin route: an allowed address, then a valid staff token (401 without one, 403 for
 * borrowers), for an auditor only reads, and every change checked against the staff account as
 * the event store has it (writeSideActor: read models may lag a revocation).
 */
export function adminAccess(deps: ApiDeps) {
  const allowed = allowListed(deps);
  const staff = authenticate(deps.tokens, deps.readModels, [...STAFF_ROLES]);
  const current = writeSideActor(deps.store);
  return (ctx: Context, next: Next) => allowed(ctx, () => staff(ctx, () => readOnlyForAuditors(ctx, () => current(ctx, next))));
}

/** Spec §6: adding and managing admins and the allow-list belong to the main admin alone. */
export function mainAdminOnly(what: string) {
  return async (ctx: Context, next: Next) => {
    if (callerOf(ctx).role !== 'superadmin') throw new ApiError(403, 'MAIN_ADMIN_ONLY', `Only the main admin can ${what}.`);
    await next();
  };
}
