import { streams } from '@honeylend/contracts';
import type { EventMetadata, EventStore } from '@honeylend/eventstore';
import { handleCommand, loadState } from '../../platform/commands/commandHandler.js';
import { DomainError } from '../../platform/commands/decider.js';
import { ApiError } from '../../platform/errors/apiError.js';
import { adminUsernameDecider } from '../adminAccount.js';

/** A reservation whose account never appeared (its writer died between the two appends). */
const ABANDONED_RESERVATION_MS = 60_000;

export interface LoginName {
  name: string;
  /** The form field it came from, for the 409's field message. */
  field: 'email' | 'phone' | 'username';
}

const normalised = (name: string) => name.trim().toLowerCase();

/** Frees a name held by an account that was never created, so a crash cannot keep an email taken forever. */
async function releaseIfAbandoned(store: EventStore, metadata: EventMetadata, name: string, now: Date): Promise<void> {
  const { state } = await loadState(store, streams.adminUsername(name), adminUsernameDecider);
  if (!state.reserved || now.getTime() - Date.parse(state.reservedAt) < ABANDONED_RESERVATION_MS) return;
  if ((await store.readStream(streams.admin(state.adminId))).length > 0) return;
  await handleCommand(store, streams.adminUsername(name), adminUsernameDecider, { type: 'ReleaseAdminUsername', username: name, adminId: state.adminId, now: now.toISOString() }, metadata);
}

/**
 * Reserves every name an admin signs in with (admin-login accepts the username, the email or the
 * phone), each on its own stream so no two accounts share one. Should one be taken, the names
 * this call reserved are freed again and the answer names the field.
 */
export async function reserveLoginNames(store: EventStore, metadata: EventMetadata, adminId: string, names: LoginName[], now: Date): Promise<void> {
  const reserved: string[] = [];
  for (const { name, field } of names) {
    const username = normalised(name);
    try {
      await releaseIfAbandoned(store, metadata, username, now);
      await handleCommand(store, streams.adminUsername(username), adminUsernameDecider, { type: 'ReserveAdminUsername', username, adminId, now: now.toISOString() }, metadata);
      reserved.push(username);
    } catch (error) {
      await releaseLoginNames(store, metadata, adminId, reserved, now);
      if (error instanceof DomainError && error.code === 'USERNAME_TAKEN') {
        const message = `Another admin account already uses this ${field}`;
        throw new ApiError(409, 'ADMIN_EXISTS', message, { fields: { [field]: message } });
      }
      throw error;
    }
  }
}

/** Frees names the admin holds; a name held by someone else (or nobody) is left alone. */
export async function releaseLoginNames(store: EventStore, metadata: EventMetadata, adminId: string, names: string[], now: Date): Promise<void> {
  for (const name of names) {
    const username = normalised(name);
    await handleCommand(store, streams.adminUsername(username), adminUsernameDecider, { type: 'ReleaseAdminUsername', username, adminId, now: now.toISOString() }, metadata);
  }
}
