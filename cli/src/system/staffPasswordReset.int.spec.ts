import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streams } from '@honeylend/contracts';
import { startTestSystem, type TestSystem } from '../testing/testSystem.js';
import { registerBorrower, textTo, textsTo } from '../testing/borrowers.js';
import { createAdmin, superadminToken, type TestAdmin } from '../testing/admins.js';
import { openSocket, socketConnected, socketEnded } from '../testing/sockets.js';

/**
 * Design §7: staff never choose, see or know a borrower's password. The Reset action starts the
 * member's own forgot-password flow for them — a code texted to the member, a text saying staff
 * started it, every session ended, an event naming the admin — so no admin can sign in as the
 * borrower (and accept terms or move money in their name).
 */
const PASSWORD = 'Sampaguita#2026';
let system: TestSystem;
let officer: TestAdmin;
const sockets: Socket[] = [];
beforeAll(async () => {
  system = await startTestSystem();
  officer = await createAdmin(system, await superadminToken(system));
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await system?.stop();
});

const login = (phone: string, password: string) => system.request('POST', '/api/auth/login', { body: { phone, password } });
const profile = (token: string) => system.request('GET', '/api/user/profile', { token });
const reset = (memberId: string, body?: unknown) => system.request('POST', `/api/admin/users/${memberId}/password-reset`, { token: officer.token, ...(body === undefined ? {} : { body }) });

describe('the staff Reset action', () => {
  it('lets no admin sign in as the borrower: no admin-chosen password works, the member resets with the texted code, old tokens are refused, the event names the admin', async () => {
    const borrower = await registerBorrower(system, 'Rosario Dizon');
    const otherDevice = (await login(borrower.phone, PASSWORD)).body.token as string;
    const otherNode = await system.startApiNode();
    const opened = [openSocket(system.baseUrl, { token: borrower.token }), openSocket(`http://127.0.0.1:${otherNode.port}`, { token: borrower.token })];
    sockets.push(...opened);
    await Promise.all(opened.map(socketConnected));
    const ended = opened.map(socketEnded);
    const eventsBefore = (await system.store.readStream(streams.member(borrower.id))).length;

    // A password chosen by staff is refused, in any field the spec's client might use, and nothing happens.
    for (const body of [{ password: 'Taken-Over#2026' }, { plainPassword: 'Taken-Over#2026' }, { newPassword: 'Taken-Over#2026' }, { password: '' }]) {
      const refused = await reset(borrower.id, body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.code).toBe('PASSWORD_NOT_ACCEPTED');
      expect(refused.body.message).toMatch(/never choose a member's password/);
    }
    expect((await system.store.readStream(streams.member(borrower.id))).length).toBe(eventsBefore);
    expect((await profile(borrower.token)).status).toBe(200);
    expect((await login(borrower.phone, 'Taken-Over#2026')).status).toBe(401);

    const started = await reset(borrower.id);
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    expect(started.body).toMatchObject({ success: true, sentTo: expect.stringMatching(/^\+63•+\d{4}$/), user: { id: borrower.id } });
    expect(started.body.sentTo.slice(-4)).toBe(borrower.phone.slice(-4));
    expect(started.body.message).toMatch(/reset code was texted to the member/);

    // Every session of the member ends: tokens, and sockets on every node.
    expect((await profile(borrower.token)).status).toBe(401);
    expect((await profile(otherDevice)).status).toBe(401);
    expect((await system.request('POST', '/api/loans', { token: borrower.token, body: { amount: 80_000, purpose: 'Sari-sari store stock', termMonths: 12 } })).status).toBe(401);
    expect(await Promise.all(ended)).toEqual([{ reason: 'password-reset' }, { reason: 'password-reset' }]);

    // The member hears that staff started it, and gets the code; the admin never sees it.
    const notice = await textTo(system, borrower.phone, /Our staff started a reset of your Honeylend password/);
    expect(notice).toBeTruthy();
    const code = await textTo(system, borrower.phone, /password reset code is (\d{6})\b/);
    expect(JSON.stringify(started.body)).not.toContain(code);
    const confirmed = await system.request('POST', '/api/auth/password-reset/confirm', { body: { phone: borrower.phone, code, newPassword: 'Mangga#Hinog2027' } });
    expect(confirmed.status).toBe(200);
    expect((await login(borrower.phone, 'Mangga#Hinog2027')).status).toBe(200);
    expect((await login(borrower.phone, PASSWORD)).status).toBe(401);
    expect((await login(borrower.phone, 'Taken-Over#2026')).status).toBe(401);

    // One event names the admin who started it, and carries no password.
    const events = await system.store.readStream(streams.member(borrower.id));
    const recorded = events.filter((event) => event.type === 'MemberPasswordResetStarted');
    expect(recorded).toHaveLength(1);
    expect(recorded[0].data).toEqual({ memberId: borrower.id, startedBy: officer.id, startedAt: expect.any(String) });
    expect(recorded[0].metadata).toMatchObject({ actorId: officer.id });
    expect(events.map((event) => event.type)).not.toContain('MemberPasswordReset');
    expect(events.find((event) => event.type === 'MemberPasswordChanged')?.data).toMatchObject({ proof: 'texted-code' });
    expect(events.find((event) => event.type === 'MemberNotified')?.metadata).toMatchObject({ actorId: officer.id });
  });

  it("leaves the member's own password working until they choose a new one: staff can lock no one out", async () => {
    const borrower = await registerBorrower(system, 'Tomas Aquino');
    expect((await reset(borrower.id)).status).toBe(202);
    expect((await profile(borrower.token)).status).toBe(401);
    expect((await login(borrower.phone, PASSWORD)).status).toBe(200);
  });

  it('refuses a suspended member (the code could not be used) and texts nothing', async () => {
    const borrower = await registerBorrower(system, 'Lorna Villanueva');
    expect((await system.request('PUT', `/api/admin/users/${borrower.id}`, { token: officer.token, body: { status: 'suspended' } })).status).toBe(200);
    const refused = await reset(borrower.id);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('MEMBER_SUSPENDED');
    expect(await textsTo(system, borrower.phone)).toEqual([]);
  });

  it("answers the member's code limit with 429 and records nothing past it", async () => {
    const borrower = await registerBorrower(system, 'Ramon Garcia');
    for (let i = 0; i < 3; i++) expect((await reset(borrower.id)).status).toBe(202);
    const before = (await system.store.readStream(streams.member(borrower.id))).length;
    const limited = await reset(borrower.id);
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('OTP_RESEND_LIMIT');
    expect((await system.store.readStream(streams.member(borrower.id))).length).toBe(before);
  });
});
