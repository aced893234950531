import type { Context } from 'koa';
import { streams } from '@honeylend/contracts';
import { ApiError } from '../../platform/errors/apiError.js';
import { callerOf } from '../../platform/context/context.js';
import type { Role } from '../../platform/sessions/tokens.js';

/**
 * The IP allow-list says from where the management side can be reached: the main admin keeps it,
 * auditors read it with the rest of the log, and no other staff member reads it anywhere — not
 * as the setting, not as its stream, not in the global log.
 */
const READERS: readonly Role[] = ['superadmin', 'auditor'];

export function readsAllowList(ctx: Context): boolean {
  return READERS.includes(callerOf(ctx).role);
}

export function isAllowListStream(stream: string): boolean {
  return stream === streams.allowedIps;
}

/** A read of the allow-list's stream by anyone but the main admin or an auditor: 403. */
export function refuseAllowListStream(ctx: Context, stream: string): void {
  if (isAllowListStream(stream) && !readsAllowList(ctx)) throw new ApiError(403, 'MAIN_ADMIN_ONLY', 'Only the main admin and auditors can read the allowed IP addresses.');
}
