import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSystem, SUPERADMIN, type TestSystem } from '../testing/testSystem.js';
import { registerBorrower } from '../testing/borrowers.js';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const schema = `t_${randomUUID().replaceAll('-', '')}`;
let system: TestSystem;
const sockets: Socket[] = [];

beforeAll(async () => {
  system = await startTestSystem({ eventStoreUrl: `${DATABASE_URL}?schema=${schema}` });
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await system?.stop();
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await client.end();
});

let secondUrl = '';
async function secondNode(): Promise<string> {
  secondUrl ||= `http://127.0.0.1:${(await system.startApiNode()).port}`;
  return secondUrl;
}

function connectedSocket(baseUrl: string, token: string): Promise<Socket> {
  const socket = io(baseUrl, { path: '/socket.io', transports: ['websocket'], auth: { token }, reconnection: false, forceNew: true });
  sockets.push(socket);
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

describe('two API nodes on one PostgreSQL event store and one Redis', () => {
  it('deliver a change to a socket on either node, whichever node took the command', async () => {
    const secondUrl = await secondNode();
    const borrower = await registerBorrower(system);
    const onFirst = await connectedSocket(system.baseUrl, borrower.token);
    const onSecond = await connectedSocket(secondUrl, borrower.token);
    const received = { first: [] as string[], second: [] as string[] };
    onFirst.on('member.updated', (m: { doc: { address: string } }) => received.first.push(m.doc.address));
    onSecond.on('member.updated', (m: { doc: { address: string } }) => received.second.push(m.doc.address));

    // One command through each node.
    const viaSecond = await fetch(`${secondUrl}/api/user/profile`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${borrower.token}` },
      body: JSON.stringify({ address: '1 Ayala Avenue, Makati City' }),
    });
    expect(viaSecond.status).toBe(200);
    const viaFirst = await system.request('PUT', '/api/user/profile', { token: borrower.token, body: { address: '2 Ayala Avenue, Makati City' } });
    expect(viaFirst.status).toBe(200);

    const deadline = Date.now() + 5_000;
    while ((received.first.length < 2 || received.second.length < 2) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    const expected = ['1 Ayala Avenue, Makati City', '2 Ayala Avenue, Makati City'];
    expect(received.first).toEqual(expected);
    expect(received.second).toEqual(expected);
    expect(system.store.kind).toBe('postgres');
  });

  it("ends a suspended member's sockets on every node, not only the one that took the suspension", async () => {
    const secondUrl = await secondNode();
    const borrower = await registerBorrower(system);
    const admin = await system.request('POST', '/api/auth/admin-login', { body: SUPERADMIN });
    const onSecond = await connectedSocket(secondUrl, borrower.token);
    const revoked = new Promise<{ reason: string }>((resolve) => onSecond.once('session.revoked', resolve));
    const dropped = new Promise((resolve) => onSecond.once('disconnect', resolve));

    const suspend = await system.request('PUT', `/api/admin/users/${borrower.id}`, { token: admin.body.token, body: { status: 'suspended' } });
    expect(suspend.status).toBe(200);
    expect(await revoked).toEqual({ reason: 'suspended' });
    await dropped;
    await expect(connectedSocket(secondUrl, borrower.token)).rejects.toThrow(/suspended|sign in/i);
  });
});
