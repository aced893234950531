import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSystem, SUPERADMIN, type TestSystem } from '../testing/testSystem.js';
import { registerBorrower, type Borrower } from '../testing/borrowers.js';
import { createAdmin, requestFrom, type TestAdmin } from '../testing/admins.js';

/**
 * Moving the business date (development only) closes days and charges late fees on every loan:
 * it is the main admin's alone, from an allowed address, and checked against the event store like
 * every other staff change. The allow-list is one setting for the whole system, so this file has
 * a system of its own.
 */
let system: TestSystem;
let main: { id: string; token: string };
let officer: TestAdmin;
let auditor: TestAdmin;
let borrower: Borrower;

beforeAll(async () => {
  system = await startTestSystem();
  const login = await system.request('POST', '/api/auth/admin-login', { body: SUPERADMIN });
  if (login.status !== 200) throw new Error(`main admin login: ${login.status} ${JSON.stringify(login.body)}`);
  main = { id: login.body.user.id, token: login.body.token };
  officer = await createAdmin(system, main.token);
  auditor = await createAdmin(system, main.token, 'auditor');
  borrower = await registerBorrower(system, 'Dalisay Mercado');
});
afterAll(() => system?.stop());

const today = async (): Promise<string> => (await system.request('GET', '/api/dev/business-date', { token: borrower.token })).body.date;
const dayAfter = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
const move = (token: string, date: string, localAddress?: string) => requestFrom(system.baseUrl, 'POST', '/api/dev/business-date', { token, body: { date }, localAddress });

describe('moving the business date (POST /api/dev/business-date)', () => {
  it('is refused to a plain admin (403), an auditor and a borrower, and the date stays', async () => {
    const before = await today();
    const head = await system.store.headPosition();
    const byAdmin = await move(officer.token, dayAfter(before, 3));
    expect(byAdmin.status).toBe(403);
    expect(byAdmin.body.code).toBe('MAIN_ADMIN_ONLY');
    expect((await move(auditor.token, dayAfter(before, 3))).status).toBe(403);
    expect((await move(borrower.token, dayAfter(before, 3))).status).toBe(403);
    expect(await today()).toBe(before);
    expect(await system.store.headPosition()).toBe(head);
  });

  it('is refused to the main admin from an address outside a configured allow-list, and allowed from a listed one', async () => {
    const rule = await system.request('POST', '/api/admin/allowed-ips', { token: main.token, body: { ipAddress: '127.0.0.1', description: 'This test only' } });
    expect(rule.status).toBe(201);
    try {
      const before = await today();
      const outside = await move(main.token, dayAfter(before, 2), '127.0.0.2');
      expect(outside.status).toBe(403);
      expect(outside.body.code).toBe('IP_NOT_ALLOWED');
      expect(await today()).toBe(before);
      const listed = await move(main.token, dayAfter(before, 1), '127.0.0.1');
      expect(listed.status).toBe(200);
      expect(await today()).toBe(dayAfter(before, 1));
    } finally {
      await system.request('DELETE', `/api/admin/allowed-ips/${rule.body.id}`, { token: main.token });
    }
  });

  it("refuses the main admin's token once the event store has revoked it, even while the read models still take it", async () => {
    const before = await today();
    await system.stopProjections();
    // A new password ends the main admin's older sessions; the read models never hear of it.
    const changed = await system.request('PATCH', `/api/admin/users/${main.id}`, { token: main.token, body: { password: 'Kalachuchi#Grove2027' } });
    expect([200, 202]).toContain(changed.status);
    expect((await system.request('GET', '/api/admin/users', { token: main.token })).status).toBe(200);
    const moved = await move(main.token, dayAfter(before, 5));
    expect(moved.status).toBe(401);
    expect(await today()).toBe(before);
  });
});
