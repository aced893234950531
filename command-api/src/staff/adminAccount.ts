import type { AdminRole, EventOf } from '@honeylend/contracts';
import { DomainError, type Decider } from '../platform/commands/decider.js';

/** Stream admin-<id>: a staff account of the management panel. */
export type AdminEvent = EventOf<'AdminAccountCreated' | 'AdminAccountUpdated' | 'AdminPasswordChanged' | 'AdminAccountDeleted'>;

export interface ExistingAdmin {
  exists: true;
  adminId: string;
  username: string;
  fullName: string;
  email: string | null;
  phone: string | null;
  role: AdminRole;
  passwordHash: string;
  /** A password change or deletion bumps it: tokens signed with an older one stop working. */
  tokenVersion: number;
}

/** A deleted account keeps the names it signed in with, so a retried deletion can finish freeing them. */
export interface DeletedAdmin {
  exists: false;
  deleted: true;
  adminId: string;
  loginNames: string[];
}

export type AdminState = { exists: false; deleted?: undefined } | DeletedAdmin | ExistingAdmin;

export type AdminAccountChanges = { username?: string; fullName?: string; email?: string | null; phone?: string | null };

export type AdminCommand =
  | {
      type: 'CreateAdminAccount';
      adminId: string;
      username: string;
      fullName: string;
      email: string | null;
      phone: string | null;
      role: AdminRole;
      passwordHash: string;
      createdBy: string;
      now: string;
    }
  | { type: 'UpdateAdminAccount'; adminId: string; changes: AdminAccountChanges; now: string }
  | { type: 'ChangeAdminPassword'; adminId: string; passwordHash: string; now: string }
  | { type: 'DeleteAdminAccount'; adminId: string; now: string };

export const ADMIN_MESSAGES = {
  notFound: 'Admin account not found',
  mainAdminUndeletable: 'The main admin cannot be deleted.',
} as const;

/** Every name the admin can sign in with (username, email, phone), each reserved on its own stream. */
export function loginNamesOf(admin: Pick<ExistingAdmin, 'username' | 'email' | 'phone'>): string[] {
  const names = [admin.username, admin.email, admin.phone].filter((name): name is string => Boolean(name)).map((name) => name.trim().toLowerCase());
  return [...new Set(names)];
}

function existing(state: AdminState): ExistingAdmin {
  if (!state.exists) throw new DomainError(404, 'ADMIN_NOT_FOUND', ADMIN_MESSAGES.notFound);
  return state;
}

function evolveAdmin(state: AdminState, event: AdminEvent): AdminState {
  if (event.type === 'AdminAccountCreated') {
    const { adminId, username, fullName, email, phone, role, passwordHash } = event.data;
    return { exists: true, adminId, username, fullName, email, phone, role, passwordHash, tokenVersion: 0 };
  }
  if (!state.exists) return state;
  switch (event.type) {
    case 'AdminAccountUpdated':
      return { ...state, ...event.data.changes };
    case 'AdminPasswordChanged':
      return { ...state, passwordHash: event.data.passwordHash, tokenVersion: state.tokenVersion + 1 };
    case 'AdminAccountDeleted':
      return { exists: false, deleted: true, adminId: state.adminId, loginNames: loginNamesOf(state) };
  }
}

function decideAdmin(command: AdminCommand, state: AdminState): AdminEvent[] {
  switch (command.type) {
    case 'CreateAdminAccount': {
      if (state.exists || state.deleted) throw new DomainError(409, 'ADMIN_EXISTS', 'This admin account already exists');
      const { adminId, username, fullName, email, phone, role, passwordHash, createdBy, now } = command;
      return [{ type: 'AdminAccountCreated', data: { adminId, username, fullName, email, phone, role, passwordHash, createdAt: now, createdBy } }];
    }
    case 'UpdateAdminAccount': {
      const admin = existing(state);
      const changes: AdminAccountChanges = {};
      for (const field of ['username', 'fullName', 'email', 'phone'] as const) {
        const value = command.changes[field];
        if (value !== undefined && value !== admin[field]) Object.assign(changes, { [field]: value });
      }
      if (Object.keys(changes).length === 0) return [];
      return [{ type: 'AdminAccountUpdated', data: { adminId: admin.adminId, changes, updatedAt: command.now } }];
    }
    case 'ChangeAdminPassword': {
      const admin = existing(state);
      return [{ type: 'AdminPasswordChanged', data: { adminId: admin.adminId, passwordHash: command.passwordHash, changedAt: command.now } }];
    }
    case 'DeleteAdminAccount': {
      if (!state.exists && state.deleted) return [];
      const admin = existing(state);
      if (admin.role === 'superadmin') throw new DomainError(409, 'MAIN_ADMIN_PROTECTED', ADMIN_MESSAGES.mainAdminUndeletable);
      return [{ type: 'AdminAccountDeleted', data: { adminId: admin.adminId, deletedAt: command.now } }];
    }
  }
}

export const adminAccountDecider: Decider<AdminState, AdminCommand, AdminEvent> = {
  initialState: () => ({ exists: false }),
  evolve: evolveAdmin,
  decide: decideAdmin,
};

/**
 * Stream admin-username-<name>: one account per login name, reserved with no_stream (or, once
 * released, with the revision read), so of racing claims exactly one wins.
 */
export type AdminUsernameEvent = EventOf<'AdminUsernameReserved' | 'AdminUsernameReleased'>;
export type AdminUsernameState = { reserved: false } | { reserved: true; adminId: string; reservedAt: string };
export type AdminUsernameCommand =
  | { type: 'ReserveAdminUsername'; username: string; adminId: string; now: string }
  /** Frees the name if (and only if) this admin still holds it. */
  | { type: 'ReleaseAdminUsername'; username: string; adminId: string; now: string };

export const adminUsernameDecider: Decider<AdminUsernameState, AdminUsernameCommand, AdminUsernameEvent> = {
  initialState: () => ({ reserved: false }),
  evolve: (_state, event) => (event.type === 'AdminUsernameReserved' ? { reserved: true, adminId: event.data.adminId, reservedAt: event.data.reservedAt } : { reserved: false }),
  decide: (command, state) => {
    if (command.type === 'ReleaseAdminUsername') {
      if (!state.reserved || state.adminId !== command.adminId) return [];
      return [{ type: 'AdminUsernameReleased', data: { username: command.username, adminId: command.adminId, releasedAt: command.now } }];
    }
    if (state.reserved) throw new DomainError(409, 'USERNAME_TAKEN', 'An admin with this username already exists');
    return [{ type: 'AdminUsernameReserved', data: { username: command.username, adminId: command.adminId, reservedAt: command.now } }];
  },
};
