import type { Context, Next } from 'koa';
import { MESSAGES } from '@honeylend/contracts';
import { ApiError } from '../http/apiError.js';
import type { ReadModelStore } from '../readModels/readModelStore.js';
import type { Role, TokenService } from './tokens.js';

export interface Caller {
  id: string;
  role: Role;
  tokenId: string;
  tokenExpiresAt: number;
}

const unauthorized = () => new ApiError(401, 'UNAUTHORIZED', 'Please sign in to continue');

/**
 * Checks the bearer token and then the account as the read model knows it now: a token issued
 * before a password reset, suspension or deletion (older token version) no longer works.
 */
export function authenticate(tokens: TokenService, readModels: ReadModelStore, allowed: Role[]) {
  return async (ctx: Context, next: Next) => {
    const header = ctx.get('Authorization');
    const match = /^Bearer ([\w-]+\.[\w-]+\.[\w-]+)$/.exec(header);
    const claims = match ? tokens.verify(match[1]!) : null;
    if (!claims) throw unauthorized();
    const [record, signedOut] = await Promise.all([readModels.auth(claims.sub), tokens.revoked?.has(claims.jti) ?? false]);
    if (!record || record.role !== claims.role || signedOut) throw unauthorized();
    // Before the token version: suspension revokes every token, yet the suspended member's client
    // must hear "suspended" (spec §4: it signs out and says why), not a bare 401.
    if (record.status === 'suspended') {
      throw new ApiError(403, 'ACCOUNT_SUSPENDED', MESSAGES.accountSuspended, undefined, { accountStatus: 'suspended' });
    }
    if (record.tokenVersion !== claims.tv) throw unauthorized();
    if (!allowed.includes(record.role)) {
      throw record.role === 'borrower'
        ? new ApiError(403, 'ACCESS_DENIED', MESSAGES.accessDenied)
        : new ApiError(403, 'FORBIDDEN', 'This is only for borrower accounts');
    }
    ctx.state.caller = { id: claims.sub, role: record.role, tokenId: claims.jti, tokenExpiresAt: claims.exp * 1000 } satisfies Caller;
    await next();
  };
}
