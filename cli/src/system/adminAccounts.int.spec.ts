import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streams } from '@honeylend/contracts';
import { startTestSystem, SUPERADMIN, uniquePhone, type TestSystem } from '../testing/testSystem.js';
import { registerBorrower } from '../testing/borrowers.js';
import { adminLogin, createAdmin, superadminToken, type TestAdmin } from '../testing/admins.js';

let system: TestSystem;
let mainToken: string;
let officer: TestAdmin;
beforeAll(async () => {
  system = await startTestSystem();
  mainToken = await superadminToken(system);
  officer = await createAdmin(system, mainToken);
});
afterAll(() => system?.stop());

const login = (username: string, password: string) => system.request('POST', '/api/auth/admin-login', { body: { username, password } });

describe('admin accounts: the list', () => {
  it("shows every admin the list, the main admin labelled 'Main Admin' with actions for the main admin only", async () => {
    const asOfficer = await system.request('GET', '/api/admin/all-users', { token: officer.token });
    expect(asOfficer.status).toBe(200);
    const main = asOfficer.body.find((a: any) => a.role === 'superadmin');
    expect(main).toMatchObject({ username: SUPERADMIN.username, label: 'Main Admin', isMainAdmin: true, canEdit: false, canDelete: false });
    expect(asOfficer.body.every((a: any) => !a.canEdit && !a.canDelete)).toBe(true);
    const asMain = await system.request('GET', '/api/admin/all-users', { token: mainToken });
    expect(asMain.body.find((a: any) => a.role === 'superadmin')).toMatchObject({ canEdit: true, canDelete: false });
    expect(asMain.body.find((a: any) => a.id === officer.id)).toMatchObject({ email: officer.email, label: null, canEdit: true, canDelete: true });
    expect(JSON.stringify(asMain.body)).not.toMatch(/password|argon2/i);
    const searched = await system.request('GET', `/api/admin/all-users?search=${encodeURIComponent(officer.email)}`, { token: mainToken });
    expect(searched.body.map((a: any) => a.id)).toEqual([officer.id]);
  });
});

describe('admin accounts: adding', () => {
  it('adds an admin who signs in with the email or the phone', async () => {
    const phone = uniquePhone();
    const res = await system.request('POST', '/api/admin/create-admin', { token: mainToken, body: { email: 'Cashier@Honeylend.test', password: 'Cashier#2026', fullName: 'Cashier One', phone } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ email: 'cashier@honeylend.test', username: 'cashier@honeylend.test', fullName: 'Cashier One', phone: `+63${phone.slice(1)}`, role: 'admin' });
    expect((await login('cashier@honeylend.test', 'Cashier#2026')).status).toBe(200);
    expect((await login(`+63${phone.slice(1)}`, 'Cashier#2026')).status).toBe(200);
    expect((await login(phone, 'Cashier#2026')).status).toBe(200);
    const [created] = await system.store.readStream(streams.admin(res.body.id));
    expect(created.metadata).toMatchObject({ ip: '127.0.0.1' });
    expect(created.data.createdBy).toBe(created.metadata.actorId);
  });

  it('answers the form rules with the spec messages and refuses a taken email or phone', async () => {
    for (const [body, message] of [
      [{ password: 'Cashier#2026' }, 'Please fill in both email and password'],
      [{ email: 'new@honeylend.test' }, 'Please fill in both email and password'],
      [{ email: '', password: '' }, 'Please fill in both email and password'],
      [{ email: 'not-an-email', password: 'Cashier#2026' }, 'Valid email is required'],
      [{ email: 'new@honeylend.test', password: '123' }, 'Password must be at least 6 characters'],
      [{ email: 'new@honeylend.test', password: 'Cashier#2026', phone: '0917' }, 'Phone number is required'],
    ] as const) {
      const res = await system.request('POST', '/api/admin/create-admin', { token: mainToken, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message, JSON.stringify(body)).toBe(message);
    }
    const takenEmail = await system.request('POST', '/api/admin/create-admin', { token: mainToken, body: { email: officer.email, password: 'Another#2026' } });
    expect(takenEmail.status).toBe(409);
    expect(takenEmail.body.details.fields.email).toBe('Another admin account already uses this email');
    const freshEmail = `fresh${Date.now()}@honeylend.test`;
    const takenPhone = await system.request('POST', '/api/admin/create-admin', { token: mainToken, body: { email: freshEmail, password: 'Another#2026', phone: officer.phone } });
    expect(takenPhone.status).toBe(409);
    expect(takenPhone.body.details.fields.phone).toBe('Another admin account already uses this phone');
    // The email reserved before the phone was found taken is free again.
    const retry = await system.request('POST', '/api/admin/create-admin', { token: mainToken, body: { email: freshEmail, password: 'Another#2026' } });
    expect(retry.status).toBe(201);
  });
});

describe('admin accounts: editing and deleting', () => {
  it('changes an admin’s email and password: the old email and old tokens stop working', async () => {
    const cashier = await createAdmin(system, mainToken);
    const empty = await system.request('PATCH', `/api/admin/users/${cashier.id}`, { token: mainToken, body: { password: '' } });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('Password cannot be empty');
    expect((await system.request('PATCH', `/api/admin/users/${cashier.id}`, { token: mainToken, body: {} })).status).toBe(400);

    const newEmail = `renamed${Date.now()}@honeylend.test`;
    const res = await system.request('PATCH', `/api/admin/users/${cashier.id}`, { token: mainToken, body: { email: newEmail, password: 'Renamed#2026' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ email: newEmail, username: newEmail });
    expect((await system.request('GET', '/api/admin/stats', { token: cashier.token })).status).toBe(401);
    expect((await login(cashier.email, 'Renamed#2026')).status).toBe(401);
    expect((await login(newEmail, cashier.password)).status).toBe(401);
    expect((await login(newEmail, 'Renamed#2026')).status).toBe(200);
    expect((await login(cashier.phone, 'Renamed#2026')).status).toBe(200);
    // The old email can be given to someone else now.
    const reuse = await system.request('POST', '/api/admin/create-admin', { token: mainToken, body: { email: cashier.email, password: 'Reused#2026' } });
    expect(reuse.status).toBe(201);
  });

  it('lets the main admin change their own password and hands them a fresh token', async () => {
    const token = await superadminToken(system);
    const main = (await system.request('GET', '/api/admin/all-users', { token })).body.find((a: any) => a.role === 'superadmin');
    const res = await system.request('PATCH', `/api/admin/users/${main.id}`, { token, body: { password: 'Rotated#2026' } });
    expect(res.status).toBe(200);
    expect((await system.request('GET', '/api/admin/stats', { token })).status).toBe(401);
    expect((await system.request('GET', '/api/admin/stats', { token: res.body.token })).status).toBe(200);
    const back = await system.request('PATCH', `/api/admin/users/${main.id}`, { token: res.body.token, body: { password: SUPERADMIN.password } });
    mainToken = back.body.token;
    expect((await system.request('GET', '/api/admin/stats', { token: mainToken })).status).toBe(200);
  });

  it('never deletes or demotes the main admin', async () => {
    const main = (await system.request('GET', '/api/admin/all-users', { token: mainToken })).body.find((a: any) => a.role === 'superadmin');
    const deleted = await system.request('DELETE', `/api/admin/users/${main.id}`, { token: mainToken });
    expect(deleted.status).toBe(409);
    expect(deleted.body).toMatchObject({ code: 'MAIN_ADMIN_PROTECTED', message: 'The main admin cannot be deleted.' });
    const demoted = await system.request('PATCH', `/api/admin/users/${main.id}`, { token: mainToken, body: { role: 'admin' } });
    expect(demoted.status).toBe(409);
    expect(demoted.body.message).toBe('The main admin cannot be demoted.');
    const promoted = await system.request('PATCH', `/api/admin/users/${officer.id}`, { token: mainToken, body: { role: 'superadmin' } });
    expect(promoted.status).toBe(400);
    expect((await system.request('GET', '/api/admin/stats', { token: mainToken })).status).toBe(200);
  });

  it('deletes another admin: their sessions end, their names are freed, the events stay', async () => {
    const leaving = await createAdmin(system, mainToken);
    const res = await system.request('DELETE', `/api/admin/users/${leaving.id}`, { token: mainToken });
    expect(res.status).toBe(200);
    expect((await system.request('GET', '/api/admin/stats', { token: leaving.token })).status).toBe(401);
    expect((await login(leaving.email, leaving.password)).status).toBe(401);
    expect((await system.request('GET', '/api/admin/all-users', { token: mainToken })).body.map((a: any) => a.id)).not.toContain(leaving.id);
    expect((await system.store.readStream(streams.admin(leaving.id))).map((e) => e.type)).toEqual(['AdminAccountCreated', 'AdminAccountDeleted']);
    const again = await system.request('POST', '/api/admin/create-admin', { token: mainToken, body: { email: leaving.email, password: 'Returning#2026', phone: leaving.phone } });
    expect(again.status).toBe(201);
  });

  it('keeps adding, editing and deleting admins to the main admin: 403 for an ordinary admin, 401/403 for others', async () => {
    const borrower = await registerBorrower(system, 'Wants Staff Access');
    const routes: [string, string, unknown?][] = [
      ['POST', '/api/admin/create-admin', { email: 'sneaky@honeylend.test', password: 'Sneaky#2026' }],
      ['PATCH', `/api/admin/users/${officer.id}`, { password: 'Hijacked#2026' }],
      ['DELETE', `/api/admin/users/${officer.id}`],
    ];
    for (const [method, path, body] of routes) {
      const asOfficer = await system.request(method, path, { body, token: officer.token });
      expect(asOfficer.status, `${method} ${path}`).toBe(403);
      expect(asOfficer.body).toMatchObject({ code: 'MAIN_ADMIN_ONLY', message: 'Only the main admin can add, edit or delete admin accounts.' });
      expect((await system.request(method, path, { body })).status).toBe(401);
      expect((await system.request(method, path, { body, token: borrower.token })).status).toBe(403);
    }
    expect((await system.request('GET', '/api/admin/all-users')).status).toBe(401);
    expect((await system.request('GET', '/api/admin/all-users', { token: borrower.token })).status).toBe(403);
    expect(await adminLogin(system, officer.email, officer.password)).toEqual(expect.any(String));
  });
});
