import type { Context, Next } from 'koa';
import type { AllowedIpDoc } from '@honeylend/contracts';
import { ApiError } from '../errors/apiError.js';
import type { ApiDeps } from '../context/context.js';
import { clientAddress } from '../http/clientAddress.js';
import { rulesCover } from '../http/addressRules.js';
import { allowListOfRecord } from './allowListOfRecord.js';

// The IP allow-list as every staff channel enforces it (the admin routes, the admin sign-in, staff
// reads of /api/files, staff sockets). The list itself is the main admin's setting (staff/allowedIps);
// reading and applying it is plumbing that the realtime gateway needs as much as any route.

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
  return (
    rules.length === 0 ||
    rulesCover(
      rules.map((rule) => rule.ipAddress),
      address,
    )
  );
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
