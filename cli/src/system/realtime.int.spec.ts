import jwt from 'jsonwebtoken';
import { acceptDisclosure } from '../testing/admins.js';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSystem, SUPERADMIN, type TestSystem } from '../testing/testSystem.js';
import { registerBorrower, verifyBorrower } from '../testing/borrowers.js';

let system: TestSystem;
const sockets: Socket[] = [];
beforeAll(async () => {
  system = await startTestSystem();
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await system?.stop();
});

interface Message {
  version: number;
  streamId: string;
  doc: any;
}

function connect(baseUrl: string, auth: Record<string, unknown>): Socket {
  const socket = io(baseUrl, { path: '/socket.io', transports: ['websocket'], auth, reconnection: false, forceNew: true });
  sockets.push(socket);
  return socket;
}

function connected(socket: Socket): Promise<void> {
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
}

function refused(socket: Socket): Promise<string> {
  return new Promise((resolve, reject) => {
    socket.once('connect', () => reject(new Error('connected, but should have been refused')));
    socket.once('connect_error', (error) => resolve(error.message));
  });
}

function collect(socket: Socket, event: string): Message[] {
  const received: Message[] = [];
  socket.on(event, (message: Message) => received.push(message));
  return received;
}

async function until(condition: () => boolean, deadlineMs = 5_000): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const address = (i: number) => `${100 + i} Mabini Street, Quezon City`;

describe('realtime gateway', () => {
  it('refuses an anonymous socket and a forged token', async () => {
    expect(await refused(connect(system.baseUrl, {}))).toMatch(/sign in/i);
    const borrower = await registerBorrower(system);
    const forged = borrower.token.slice(0, -3) + (borrower.token.endsWith('abc') ? 'xyz' : 'abc');
    expect(await refused(connect(system.baseUrl, { token: forged }))).toMatch(/sign in/i);
  });

  it("pushes a member's change to their own socket and to the admins room, in order, with versions", async () => {
    const borrower = await registerBorrower(system);
    const other = await registerBorrower(system);
    const admin = await system.request('POST', '/api/auth/admin-login', { body: SUPERADMIN });
    const mine = connect(system.baseUrl, { token: borrower.token });
    const theirs = connect(system.baseUrl, { token: other.token });
    const admins = connect(system.baseUrl, { token: admin.body.token });
    await Promise.all([connected(mine), connected(theirs), connected(admins)]);
    const toMe = collect(mine, 'member.updated');
    const toOther = collect(theirs, 'member.updated');
    const toAdmins = collect(admins, 'member.updated');

    for (let i = 0; i < 3; i++) {
      const res = await system.request('PUT', '/api/user/profile', { token: borrower.token, body: { address: address(i) } });
      expect(res.status).toBe(200);
    }
    await until(() => toMe.length === 3 && toAdmins.filter((m) => m.doc.id === borrower.id).length === 3);
    expect(toMe.map((m) => m.doc.address)).toEqual([address(0), address(1), address(2)]);
    const versions = toMe.map((m) => m.version);
    expect([...versions].sort((a, b) => a - b)).toEqual(versions);
    // The pushed document is the API's answer shape: pesos, no internals.
    expect(toMe[0].doc).toMatchObject({ id: borrower.id, balance: 0, accountStatus: 'active' });
    expect(JSON.stringify(toMe)).not.toMatch(/Centavos|argon2/);
    expect(toOther).toEqual([]);
  });

  it("delivers an admin's loan approval to the borrower and to the admins, in order, with the new balance and stat cards", async () => {
    const borrower = await registerBorrower(system);
    await verifyBorrower(system, borrower);
    const applied = await system.request('POST', '/api/loans', { token: borrower.token, body: { amount: 120000, purpose: 'Tricycle repair', termMonths: 12 } });
    expect(applied.status).toBe(201);
    const admin = await system.request('POST', '/api/auth/admin-login', { body: SUPERADMIN });
    const mine = connect(system.baseUrl, { token: borrower.token });
    const admins = connect(system.baseUrl, { token: admin.body.token });
    await Promise.all([connected(mine), connected(admins)]);
    const myLoans = collect(mine, 'loan.updated');
    const myProfile = collect(mine, 'member.updated');
    const adminLoans = collect(admins, 'loan.updated');
    const stats = collect(admins, 'stats.updated');

    const approved = await system.request('PUT', `/api/admin/loans/${applied.body.id}`, { token: admin.body.token, body: { status: 'approved' } });
    expect(approved.status).toBe(200);
    await acceptDisclosure(system, borrower.token, applied.body.id);

    await until(() => myLoans.length >= 3 && adminLoans.length >= 3 && myProfile.some((m) => m.doc.balance === 120000) && stats.length > 0);
    // Approval, the borrower's acceptance of the Disclosure Statement, then disbursement opening the account.
    expect(myLoans.map((m) => [m.doc.status, m.doc.acceptance.awaiting])).toEqual([
      ['approved', true],
      ['approved', false],
      ['active', false],
    ]);
    expect(adminLoans.filter((m) => m.doc.id === applied.body.id).map((m) => m.doc.status)).toEqual(['approved', 'approved', 'active']);
    expect(myLoans[2].doc.schedule[0]).toMatchObject({ status: 'upcoming', paid: 0 });
    expect(myLoans[0].version).toBeLessThan(myLoans[2].version);
    expect(stats.at(-1)!.doc.loans).toMatchObject({ total: expect.any(Number) });
    // A borrower never hears the admins' stat cards.
    expect(collect(mine, 'stats.updated')).toEqual([]);
  });

  it('replays exactly the 50 changes a socket missed while disconnected, then goes live', async () => {
    const borrower = await registerBorrower(system);
    const first = connect(system.baseUrl, { token: borrower.token });
    await connected(first);
    const seen = collect(first, 'member.updated');
    await system.request('PUT', '/api/user/profile', { token: borrower.token, body: { address: address(999) } });
    await until(() => seen.length === 1);
    const since = seen[0].streamId;
    first.disconnect();

    for (let i = 0; i < 50; i++) {
      await system.request('PUT', '/api/user/profile', { token: borrower.token, body: { address: address(i) } });
    }
    const again = connect(system.baseUrl, { token: borrower.token, since });
    const replayed = collect(again, 'member.updated');
    await connected(again);
    await until(() => replayed.length >= 50);
    await system.request('PUT', '/api/user/profile', { token: borrower.token, body: { address: address(1000) } });
    await until(() => replayed.length === 51);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(replayed.map((m) => m.doc.address)).toEqual([...Array.from({ length: 50 }, (_, i) => address(i)), address(1000)]);
    expect(new Set(replayed.map((m) => m.streamId)).size).toBe(51);
  });

  it('closes a socket when its token expires, and refuses the expired token afterwards', async () => {
    const borrower = await registerBorrower(system);
    const shortLived = jwt.sign({ role: 'borrower', tv: 0 }, 'test-secret-that-is-long-enough-for-hs256', {
      algorithm: 'HS256',
      expiresIn: 1,
      subject: borrower.id,
      jwtid: 'short-lived-test-token',
      issuer: 'honeylend',
      audience: 'honeylend-api',
    });
    const socket = connect(system.baseUrl, { token: shortLived });
    const revoked = new Promise<{ reason: string }>((resolve) => socket.once('session.revoked', resolve));
    const disconnected = new Promise((resolve) => socket.once('disconnect', resolve));
    await connected(socket);
    expect(await revoked).toEqual({ reason: 'expired' });
    await disconnected;
    expect(await refused(connect(system.baseUrl, { token: shortLived }))).toMatch(/sign in/i);
  });

  it('asks for a REST refetch when the client resumes from before what the feed still holds', async () => {
    const borrower = await registerBorrower(system);
    await system.redis.xtrim(`${system.keyPrefix}rm:changes`, 'MAXLEN', 5);
    const socket = connect(system.baseUrl, { token: borrower.token, since: '1-0' });
    const resync = new Promise((resolve) => socket.once('resync.required', resolve));
    await connected(socket);
    await expect(resync).resolves.toBeTruthy();
  });
});
