import type { AdminRole, EventData } from '@honeylend/contracts';
import { DomainError, type Decider } from '../domain/decider.js';

/** Stream admin-<id>: a staff account of the management panel. */
export type AdminEvent = { type: 'AdminAccountCreated'; data: EventData<'AdminAccountCreated'> };

export type AdminState =
  | { exists: false }
  | { exists: true; adminId: string; username: string; role: AdminRole; passwordHash: string; tokenVersion: number };

export type AdminCommand = {
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
};

export const adminAccountDecider: Decider<AdminState, AdminCommand, AdminEvent> = {
  initialState: () => ({ exists: false }),
  evolve: (_state, event) => ({
    exists: true,
    adminId: event.data.adminId,
    username: event.data.username,
    role: event.data.role,
    passwordHash: event.data.passwordHash,
    tokenVersion: 0,
  }),
  decide: (command, state) => {
    if (state.exists) throw new DomainError(409, 'ADMIN_EXISTS', 'This admin account already exists');
    return [
      {
        type: 'AdminAccountCreated',
        data: {
          adminId: command.adminId,
          username: command.username,
          fullName: command.fullName,
          email: command.email,
          phone: command.phone,
          role: command.role,
          passwordHash: command.passwordHash,
          createdAt: command.now,
          createdBy: command.createdBy,
        },
      },
    ];
  },
};

/** Stream admin-username-<name>: one account per login name, reserved with no_stream. */
export type AdminUsernameEvent = { type: 'AdminUsernameReserved'; data: EventData<'AdminUsernameReserved'> };
export type AdminUsernameState = { reserved: false } | { reserved: true; adminId: string };
export type AdminUsernameCommand = { type: 'ReserveAdminUsername'; username: string; adminId: string; now: string };

export const adminUsernameDecider: Decider<AdminUsernameState, AdminUsernameCommand, AdminUsernameEvent> = {
  initialState: () => ({ reserved: false }),
  evolve: (_state, event) => ({ reserved: true, adminId: event.data.adminId }),
  decide: (command, state) => {
    if (state.reserved) throw new DomainError(409, 'USERNAME_TAKEN', 'An admin with this username already exists');
    return [
      { type: 'AdminUsernameReserved', data: { username: command.username, adminId: command.adminId, reservedAt: command.now } },
    ];
  },
};
