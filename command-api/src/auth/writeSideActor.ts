import type { Context, Next } from 'koa';
import { streams } from '@honeylend/contracts';
import type { EventStore } from '@honeylend/eventstore';
import { adminAccountDecider } from '../admin/adminAccount.js';
import { loadState } from '../domain/commandHandler.js';
import { ApiError } from '../http/apiError.js';
import { memberDecider } from '../member/decide.js';
import type { MemberState } from '../member/member.js';
import type { Caller } from './authenticate.js';

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const signedOut = () => new ApiError(401, 'UNAUTHORIZED', 'Please sign in to continue');

/**
 * Checks the caller against the event store itself, not the read models: the account still
 * exists, with the token's role and token version (and a member is not suspended). The read
 * models can lag (a stopped or slow projection runner), and a token revoked by a password reset,
 * suspension, deletion or password change must not move money or privileges in that gap.
 */
export async function assertActorOnWriteSide(store: EventStore, caller: Caller): Promise<KnownMember | null> {
  if (caller.role === 'borrower') {
    const { state, revision } = await loadState(store, streams.member(caller.id), memberDecider);
    if (!state.exists || state.tokenVersion !== caller.tokenVersion) throw signedOut();
    if (state.status === 'suspended') {
      throw new ApiError(403, 'ACCOUNT_SUSPENDED', 'Your account has been suspended. Please contact support.', undefined, { accountStatus: 'suspended' });
    }
    return revision === 'no_stream' ? null : { state, revision };
  }
  const { state } = await loadState(store, streams.admin(caller.id), adminAccountDecider);
  if (!state.exists || state.role !== caller.role || state.tokenVersion !== caller.tokenVersion) throw signedOut();
  return null;
}

/** The borrower's member stream as this check read it: a command on that stream may decide on it (HandleOptions.known). */
export interface KnownMember {
  state: MemberState;
  revision: number;
}

/**
 * Every request that changes something (any method but GET, HEAD, OPTIONS) passes
 * assertActorOnWriteSide first. A borrower's member state it read is left in
 * `ctx.state.writeSideMember`, so a handler appending to that stream need not read it a second time
 * (trusted only through the append's expected revision, as handleCommand trusts any known state).
 */
export function writeSideActor(store: EventStore) {
  return async (ctx: Context, next: Next) => {
    if (!READ_METHODS.has(ctx.method)) {
      const member = await assertActorOnWriteSide(store, ctx.state.caller as Caller);
      if (member) ctx.state.writeSideMember = member;
    }
    await next();
  };
}

/** The member state writeSideActor read for this request, if any. */
export function writeSideMemberOf(ctx: Context): KnownMember | undefined {
  return ctx.state.writeSideMember as KnownMember | undefined;
}
