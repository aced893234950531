import type { Context, Next } from 'koa';
import { streams } from '@honeylend/contracts';
import type { EventStore } from '@honeylend/eventstore';
import { loadState } from '../platform/commands/commandHandler.js';
import { ApiError } from '../platform/errors/apiError.js';
import { isReadMethod, unauthorized as signedOut, type Caller } from '../platform/sessions/authenticate.js';
import { memberDecider } from './decide.js';
import type { MemberState } from './member.js';

/**
 * Checks a borrower against the event store itself, not the read models: the member still
 * exists, with the token's version, and is not suspended. The read models can lag (a stopped or
 * slow projection runner), and a token revoked by a password reset, suspension, deletion or
 * password change must not move money in that gap. Only borrower tokens come this far (the
 * routes authenticate the borrower role first); anything else is refused as signed out.
 */
export async function assertMemberOnWriteSide(store: EventStore, caller: Caller): Promise<KnownMember | null> {
  if (caller.role !== 'borrower') throw signedOut();
  const { state, revision } = await loadState(store, streams.member(caller.id), memberDecider);
  if (!state.exists || state.tokenVersion !== caller.tokenVersion) throw signedOut();
  if (state.status === 'suspended') {
    throw new ApiError(403, 'ACCOUNT_SUSPENDED', 'Your account has been suspended. Please contact support.', undefined, { accountStatus: 'suspended' });
  }
  return revision === 'no_stream' ? null : { state, revision };
}

/** The borrower's member stream as this check read it: a command on that stream may decide on it (HandleOptions.known). */
export interface KnownMember {
  state: MemberState;
  revision: number;
}

/**
 * Every borrower request that changes something (any method but GET, HEAD, OPTIONS) passes
 * assertMemberOnWriteSide first. The member state it read is left in `ctx.state.writeSideMember`,
 * so a handler appending to that stream need not read it a second time (trusted only through the
 * append's expected revision, as handleCommand trusts any known state).
 */
export function memberOnWriteSide(store: EventStore) {
  return async (ctx: Context, next: Next) => {
    if (!isReadMethod(ctx.method)) {
      const member = await assertMemberOnWriteSide(store, ctx.state.caller as Caller);
      if (member) ctx.state.writeSideMember = member;
    }
    await next();
  };
}

/** The member state memberOnWriteSide read for this request, if any. */
export function writeSideMemberOf(ctx: Context): KnownMember | undefined {
  return ctx.state.writeSideMember as KnownMember | undefined;
}
