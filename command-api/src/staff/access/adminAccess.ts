import type { Context, Next } from 'koa';
import { authenticate, isReadMethod } from '../../platform/sessions/authenticate.js';
import { staffOnWriteSide } from './staffOnWriteSide.js';
import { ApiError } from '../../platform/errors/apiError.js';
import { callerOf, type ApiDeps } from '../../platform/context/context.js';
import { allowListed } from '../../platform/allowList/allowList.js';

/** Staff who change things. */
export const ADMIN_ROLES = ['admin', 'superadmin'] as const;
/** Everyone who may sign in to the management side: admins, and auditors who only read (issue 16). */
export const STAFF_ROLES = [...ADMIN_ROLES, 'auditor'] as const;

/** An auditor reads everything and changes nothing: every other method is refused before a handler sees it. */
export async function readOnlyForAuditors(ctx: Context, next: Next): Promise<void> {
  if (callerOf(ctx).role === 'auditor' && !isReadMethod(ctx.method)) {
    throw new ApiError(403, 'READ_ONLY', 'Auditors can read everything but change nothing.');
  }
  await next();
}

/**
 * Every /api/admin route: an allowed address, then a valid staff token (401 without one, 403 for
 * borrowers), for an auditor only reads, and every change checked against the staff account as
 * the event store has it (staffOnWriteSide: read models may lag a revocation).
 */
export function adminAccess(deps: ApiDeps) {
  const allowed = allowListed(deps);
  const staff = authenticate(deps.tokens, deps.readModels, [...STAFF_ROLES]);
  const current = staffOnWriteSide(deps.store);
  return (ctx: Context, next: Next) => allowed(ctx, () => staff(ctx, () => readOnlyForAuditors(ctx, () => current(ctx, next))));
}

/** Spec §6: adding and managing admins and the allow-list belong to the main admin alone. */
export function mainAdminOnly(what: string) {
  return async (ctx: Context, next: Next) => {
    if (callerOf(ctx).role !== 'superadmin') throw new ApiError(403, 'MAIN_ADMIN_ONLY', `Only the main admin can ${what}.`);
    await next();
  };
}
