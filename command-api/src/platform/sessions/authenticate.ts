import type { Context, Next } from 'koa';
import { MESSAGES } from '@honeylend/contracts';
import { ApiError } from '../errors/apiError.js';
import type { ReadModelStore } from '../readModels/readModelStore.js';
import type { Role, TokenService, VerifiedClaims } from './tokens.js';

export interface Caller {
  id: string;
  role: Role;
  tokenId: string;
  tokenExpiresAt: number;
  /** The token's version: commands that move money or privileges check it against the event store too. */
  tokenVersion: number;
}

/** The 401 every check of the caller answers, whichever store it consulted. */
export const unauthorized = () => new ApiError(401, 'UNAUTHORIZED', 'Please sign in to continue');

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Whether a request only reads: every other method changes something, and the write-side checks apply to it. */
export function isReadMethod(method: string): boolean {
  return READ_METHODS.has(method);
}

/** The claims of the request's bearer token, its signature and expiry checked; 401 without a valid one. */
function claimsOf(ctx: Context, tokens: TokenService): VerifiedClaims {
  const match = /^Bearer ([\w-]+\.[\w-]+\.[\w-]+)$/.exec(ctx.get('Authorization'));
  const claims = match ? tokens.verify(match[1]) : null;
  if (!claims) throw unauthorized();
  return claims;
}

/**
 * The account behind valid claims as the read model knows it now: a token signed out, or issued
 * before a password reset, suspension or deletion (older token version), no longer works.
 */
async function callerFor(claims: VerifiedClaims, tokens: TokenService, readModels: ReadModelStore, allowed: Role[]): Promise<Caller> {
  const [record, signedOut] = await Promise.all([readModels.auth(claims.sub), tokens.revoked?.has(claims.jti) ?? false]);
  if (!record || record.role !== claims.role || signedOut) throw unauthorized();
  // Before the token version: suspension revokes every token, yet the suspended member's client
  // must hear "suspended" (spec §4: it signs out and says why), not a bare 401.
  if (record.status === 'suspended') {
    throw new ApiError(403, 'ACCOUNT_SUSPENDED', MESSAGES.accountSuspended, undefined, { accountStatus: 'suspended' });
  }
  if (record.tokenVersion !== claims.tv) throw unauthorized();
  if (!allowed.includes(record.role)) {
    throw record.role === 'borrower' ? new ApiError(403, 'ACCESS_DENIED', MESSAGES.accessDenied) : new ApiError(403, 'FORBIDDEN', 'This is only for borrower accounts');
  }
  return { id: claims.sub, role: record.role, tokenId: claims.jti, tokenExpiresAt: claims.exp * 1000, tokenVersion: claims.tv };
}

/** Checks the bearer token and then the account, on every request; the caller is `ctx.state.caller`. */
export function authenticate(tokens: TokenService, readModels: ReadModelStore, allowed: Role[]) {
  return async (ctx: Context, next: Next) => {
    ctx.state.caller = (await callerFor(claimsOf(ctx, tokens), tokens, readModels, allowed)) satisfies Caller;
    await next();
  };
}

/**
 * `authenticate` for a route that reads the caller's own documents: `read` of the account the
 * token names (its signature already checked) is sent to Redis in the same tick as the account and
 * revocation checks — one round trip where there were two one after the other — and what it read
 * is handed on only once those checks pass; a refused caller gets the same error as from
 * `authenticate` and nothing of what was read.
 */
export function authenticatedRead(tokens: TokenService, readModels: ReadModelStore, allowed: Role[]) {
  return async <T>(ctx: Context, read: (callerId: string) => Promise<T>): Promise<T> => {
    const claims = claimsOf(ctx, tokens);
    const [caller, value] = await Promise.all([callerFor(claims, tokens, readModels, allowed), read(claims.sub)]);
    ctx.state.caller = caller satisfies Caller;
    return value;
  };
}
