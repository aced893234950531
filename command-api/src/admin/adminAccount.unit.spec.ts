import { describe, it } from 'vitest';
import { given } from '../domain/testing/givenWhenThen.js';
import { adminAccountDecider, adminUsernameDecider } from './adminAccount.js';

const adminId = '7d1e2f30-4a5b-4c6d-8e9f-0a1b2c3d4e5f';
const now = '2026-11-22T08:00:00.000Z';
const passwordHash = '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNo';
const create = {
  type: 'CreateAdminAccount' as const,
  adminId,
  username: 'admin',
  fullName: 'Main Admin',
  email: null,
  phone: null,
  role: 'superadmin' as const,
  passwordHash,
  createdBy: 'bootstrap',
  now,
};
const created = {
  type: 'AdminAccountCreated' as const,
  data: { adminId, username: 'admin', fullName: 'Main Admin', email: null, phone: null, role: 'superadmin' as const, passwordHash, createdAt: now, createdBy: 'bootstrap' },
};

describe('admin account decider', () => {
  it('creates the account', () => {
    given(adminAccountDecider, []).when(create).then([created]);
  });
  it('refuses to create it twice', () => {
    given(adminAccountDecider, [created]).when(create).thenThrows('ADMIN_EXISTS');
  });
  it('reserves a username once', () => {
    given(adminUsernameDecider, [{ type: 'AdminUsernameReserved', data: { username: 'admin', adminId, reservedAt: now } }])
      .when({ type: 'ReserveAdminUsername', username: 'admin', adminId, now })
      .thenThrows('USERNAME_TAKEN');
  });
});
