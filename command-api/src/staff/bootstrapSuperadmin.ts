import { randomUUID } from 'node:crypto';
import { streams } from '@honeylend/contracts';
import type { EventStore } from '@honeylend/eventstore';
import { handleCommand, loadState } from '../platform/commands/commandHandler.js';
import { DomainError } from '../platform/commands/decider.js';
import { hashPassword } from '../platform/passwords/passwords.js';
import { adminAccountDecider, adminUsernameDecider } from './adminAccount.js';
import type { Logger } from '../platform/logging/logger.js';

/**
 * Creates the main admin (role superadmin) from ADMIN_USERNAME / ADMIN_PASSWORD the first time the
 * system starts. The username reservation is appended with no_stream, so several API nodes
 * starting at once still create exactly one. An existing account is left alone: changing the
 * password later is an admin action, not a restart.
 */
export async function bootstrapSuperadmin(store: EventStore, username: string, password: string, logger: Logger, now = new Date()): Promise<void> {
  const name = username.trim().toLowerCase();
  const existing = await loadState(store, streams.adminUsername(name), adminUsernameDecider);
  if (existing.state.reserved) return;
  const adminId = randomUUID();
  const at = now.toISOString();
  const metadata = { actorId: 'bootstrap', correlationId: randomUUID() };
  try {
    await handleCommand(store, streams.adminUsername(name), adminUsernameDecider, { type: 'ReserveAdminUsername', username: name, adminId, now: at }, metadata);
  } catch (error) {
    if (error instanceof DomainError && error.code === 'USERNAME_TAKEN') return;
    throw error;
  }
  await handleCommand(
    store,
    streams.admin(adminId),
    adminAccountDecider,
    {
      type: 'CreateAdminAccount',
      adminId,
      username: name,
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
  logger.info('main admin account created', { username: name, adminId });
}
