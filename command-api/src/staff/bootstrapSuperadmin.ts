import { randomUUID } from 'node:crypto';
import { streams } from '@honeylend/contracts';
import type { EventStore } from '@honeylend/eventstore';
import { handleCommand, loadState } from '../platform/commands/commandHandler.js';
import { DomainError } from '../platform/commands/decider.js';
import { hashPassword } from '../platform/passwords/passwords.js';
import { adminAccountDecider, adminUsernameDecider } from './adminAccount.js';
import { earlierMainAdmin, mainAdminDecider } from './mainAdmin.js';
import type { Logger } from '../platform/logging/logger.js';

/**
 * Makes the main admin (role superadmin) from ADMIN_USERNAME / ADMIN_PASSWORD when the system has
 * none: `created` when this start made it, `exists` when there already was one. The account is
 * designated first, on the main-admin stream with no_stream, so API nodes starting at once (even
 * with different names) make exactly one, and a later start with another ADMIN_USERNAME makes
 * none. A start cut short after the designation finishes the designated account on the next start.
 * An existing account is left alone: changing the password later is an admin action, not a restart.
 */
export async function bootstrapSuperadmin(store: EventStore, username: string, password: string, logger: Logger, now = new Date()): Promise<'created' | 'exists'> {
  const name = username.trim().toLowerCase();
  const at = now.toISOString();
  const metadata = { actorId: 'bootstrap', correlationId: randomUUID() };
  let { state: main } = await loadState(store, streams.mainAdmin, mainAdminDecider);
  if (!main.designated) {
    const candidate = (await earlierMainAdmin(store)) ?? { adminId: randomUUID(), username: name };
    ({ state: main } = await handleCommand(store, streams.mainAdmin, mainAdminDecider, { type: 'DesignateMainAdmin', ...candidate, now: at }, metadata));
  }
  if (!main.designated) throw new Error('the main admin was not designated');
  const { adminId } = main;
  const account = await loadState(store, streams.admin(adminId), adminAccountDecider);
  if (account.state.exists) {
    if (account.state.username !== name) logger.warn('the main admin already exists under another name; ADMIN_USERNAME and ADMIN_PASSWORD only make the first one', { username: account.state.username });
    return 'exists';
  }

  // The designated account is made under the name it was designated with, whatever this start was told.
  try {
    await handleCommand(store, streams.adminUsername(main.username), adminUsernameDecider, { type: 'ReserveAdminUsername', username: main.username, adminId, now: at }, metadata);
  } catch (error) {
    if (!(error instanceof DomainError && error.code === 'USERNAME_TAKEN')) throw error;
    const holder = await loadState(store, streams.adminUsername(main.username), adminUsernameDecider);
    if (!holder.state.reserved || holder.state.adminId !== adminId) throw new Error(`the main admin's name "${main.username}" is another admin's login name`);
  }
  try {
    await handleCommand(
      store,
      streams.admin(adminId),
      adminAccountDecider,
      {
        type: 'CreateAdminAccount',
        adminId,
        username: main.username,
        fullName: 'Main Admin',
        email: null,
        phone: null,
        role: 'superadmin',
        passwordHash: await hashPassword(password),
        createdBy: 'bootstrap',
        now: at,
      },
      metadata,
    );
  } catch (error) {
    // Another node starting at the same moment made it.
    if (error instanceof DomainError && error.code === 'ADMIN_EXISTS') return 'exists';
    throw error;
  }
  logger.info('main admin account created', { username: main.username, adminId });
  return 'created';
}
