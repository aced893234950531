import type { Context, Next } from 'koa';
import { streams } from '@honeylend/contracts';
import type { EventStore } from '@honeylend/eventstore';
import { loadState } from '../../platform/commands/commandHandler.js';
import { isReadMethod, unauthorized as signedOut, type Caller } from '../../platform/sessions/authenticate.js';
import { adminAccountDecider } from '../adminAccount.js';

/**
 * Checks a staff caller against the event store itself, not the read models: the staff account
 * still exists, with the token's role and token version. The read models can lag (a stopped or
 * slow projection runner), and a token revoked by a password reset, a role change or a deletion
 * must not move money or privileges in that gap. Only staff tokens come this far (the guards
 * authenticate staff roles first); anything else is refused as signed out.
 */
export async function assertStaffOnWriteSide(store: EventStore, caller: Caller): Promise<void> {
  if (caller.role === 'borrower') throw signedOut();
  const { state } = await loadState(store, streams.admin(caller.id), adminAccountDecider);
  if (!state.exists || state.role !== caller.role || state.tokenVersion !== caller.tokenVersion) throw signedOut();
}

/** Every staff request that changes something (any method but GET, HEAD, OPTIONS) passes assertStaffOnWriteSide first. */
export function staffOnWriteSide(store: EventStore) {
  return async (ctx: Context, next: Next) => {
    if (!isReadMethod(ctx.method)) await assertStaffOnWriteSide(store, ctx.state.caller as Caller);
    await next();
  };
}
