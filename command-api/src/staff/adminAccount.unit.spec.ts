import { describe, expect, it } from 'vitest';
import { given } from '../platform/commands/testing/givenWhenThen.js';
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

describe('admin account decider: changes', () => {
  const officerId = '8e2f3a41-5b6c-4d7e-9f0a-1b2c3d4e5f60';
  const officer = {
    type: 'AdminAccountCreated' as const,
    data: { ...created.data, adminId: officerId, username: 'ana@honeylend.test', email: 'ana@honeylend.test', phone: '+639171234567', role: 'admin' as const, createdBy: adminId },
  };

  it('records only the fields that change', () => {
    given(adminAccountDecider, [officer])
      .when({ type: 'UpdateAdminAccount', adminId: officerId, changes: { email: 'ana@honeylend.test', fullName: 'Ana Cruz' }, now })
      .then([{ type: 'AdminAccountUpdated', data: { adminId: officerId, changes: { fullName: 'Ana Cruz' }, updatedAt: now } }]);
    given(adminAccountDecider, [officer])
      .when({ type: 'UpdateAdminAccount', adminId: officerId, changes: { email: 'ana@honeylend.test' }, now })
      .then([]);
  });

  it('changes a password, which ends older sessions', () => {
    const changed = { type: 'AdminPasswordChanged' as const, data: { adminId: officerId, passwordHash, changedAt: now } };
    given(adminAccountDecider, [officer]).when({ type: 'ChangeAdminPassword', adminId: officerId, passwordHash, now }).then([changed]);
    const state = [officer, changed].reduce((state, event) => adminAccountDecider.evolve(state, event), adminAccountDecider.initialState());
    expect(state.exists && state.tokenVersion).toBe(1);
  });

  it('deletes an admin once, keeping the names to free; never the main admin', () => {
    const deleted = { type: 'AdminAccountDeleted' as const, data: { adminId: officerId, deletedAt: now } };
    given(adminAccountDecider, [officer]).when({ type: 'DeleteAdminAccount', adminId: officerId, now }).then([deleted]);
    given(adminAccountDecider, [officer, deleted]).when({ type: 'DeleteAdminAccount', adminId: officerId, now }).then([]);
    const state = [officer, deleted].reduce((state, event) => adminAccountDecider.evolve(state, event), adminAccountDecider.initialState());
    expect(state).toEqual({ exists: false, deleted: true, adminId: officerId, loginNames: ['ana@honeylend.test', '+639171234567'] });
    given(adminAccountDecider, [created]).when({ type: 'DeleteAdminAccount', adminId, now }).thenThrows('MAIN_ADMIN_PROTECTED', 'The main admin cannot be deleted.');
    given(adminAccountDecider, [officer, deleted]).when({ type: 'ChangeAdminPassword', adminId: officerId, passwordHash, now }).thenThrows('ADMIN_NOT_FOUND');
  });

  it('frees a username only for the admin holding it, after which another may take it', () => {
    const reserved = { type: 'AdminUsernameReserved' as const, data: { username: 'ana@honeylend.test', adminId: officerId, reservedAt: now } };
    const released = { type: 'AdminUsernameReleased' as const, data: { username: 'ana@honeylend.test', adminId: officerId, releasedAt: now } };
    given(adminUsernameDecider, [reserved]).when({ type: 'ReleaseAdminUsername', username: 'ana@honeylend.test', adminId: officerId, now }).then([released]);
    given(adminUsernameDecider, [reserved]).when({ type: 'ReleaseAdminUsername', username: 'ana@honeylend.test', adminId, now }).then([]);
    given(adminUsernameDecider, [reserved, released])
      .when({ type: 'ReserveAdminUsername', username: 'ana@honeylend.test', adminId, now })
      .then([{ type: 'AdminUsernameReserved', data: { username: 'ana@honeylend.test', adminId, reservedAt: now } }]);
  });
});
