import jwt from 'jsonwebtoken';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiServer } from '@honeylend/command-api';
import { REPLAY_WINDOW } from '../../../command-api/src/platform/realtime/realtimeGateway.js';
import { startTestSystem, SUPERADMIN, type TestSystem } from '../testing/testSystem.js';
import { registerBorrower, verifyBorrower } from '../testing/borrowers.js';
import { createAdmin, requestFrom, startProxiedNode, superadminToken, type TestAdmin } from '../testing/admins.js';
import { openSocket, socketConnected, socketEnded, socketRefused, until } from '../testing/sockets.js';

/**
 * Issue 14, items 2, 5 and 6 against the real gateway: the IP allow-list on staff sockets and on
 * /api/files, the allow-list's changes for the main admin only, bounded replays, and sign-out
 * ending the token's sockets on every node. The test itself calls from 127.0.0.1; 127.0.0.2 and
 * 127.0.0.3 are other loopback addresses, so other clients to the server.
 */
let system: TestSystem;
let mainToken: string;
let officer: TestAdmin;
let auditor: TestAdmin;
const sockets: Socket[] = [];
const nodes: ApiServer[] = [];

beforeAll(async () => {
  system = await startTestSystem();
  mainToken = await superadminToken(system);
  officer = await createAdmin(system, mainToken);
  auditor = await createAdmin(system, mainToken, 'auditor');
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  for (const node of nodes) await node.close();
  await system?.stop();
});

function socket(baseUrl: string, auth: Record<string, unknown>, options: Parameters<typeof openSocket>[2] = {}): Socket {
  const opened = openSocket(baseUrl, auth, options);
  sockets.push(opened);
  return opened;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether the socket is still connected after a while (it would have been ended by now). */
async function stillConnectedAfter(opened: Socket, ms = 500): Promise<boolean> {
  await pause(ms);
  return opened.connected;
}

async function allowList(...addresses: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const ipAddress of addresses) {
    const res = await system.request('POST', '/api/admin/allowed-ips', { token: mainToken, body: { ipAddress } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    ids.push(res.body.id);
  }
  return ids;
}

async function removeRules(ids: string[]): Promise<void> {
  for (const id of [...ids].reverse()) await system.request('DELETE', `/api/admin/allowed-ips/${id}`, { token: mainToken });
}

describe('the IP allow-list on staff sockets and document reads', () => {
  it('refuses staff sockets and staff document reads from an address not on the list; borrowers are unaffected', async () => {
    const borrower = await registerBorrower(system);
    await verifyBorrower(system, borrower);
    const profile = (await system.request('GET', '/api/user/profile', { token: borrower.token })).body;
    const fileId = /\/api\/files\/([0-9a-f-]{36})/.exec(profile.idFrontUrl)![1];
    const rules = await allowList('127.0.0.1');
    try {
      for (const token of [officer.token, auditor.token, mainToken]) {
        const refusal = await socketRefused(socket(system.baseUrl, { token }, { localAddress: '127.0.0.2' }));
        expect(refusal.data).toEqual({ code: 'IP_NOT_ALLOWED', clientAddress: '127.0.0.2' });
        expect(refusal.message).toMatch(/cannot be reached from your address \(127\.0\.0\.2\)/);
        await socketConnected(socket(system.baseUrl, { token }, { localAddress: '127.0.0.1' }));
      }
      await socketConnected(socket(system.baseUrl, { token: borrower.token }, { localAddress: '127.0.0.2' }));

      for (const token of [officer.token, mainToken]) {
        const away = await requestFrom(system.baseUrl, 'GET', `/api/files/${fileId}`, { token, localAddress: '127.0.0.2' });
        expect(away.status).toBe(403);
        expect(away.body).toMatchObject({ code: 'IP_NOT_ALLOWED', details: { clientAddress: '127.0.0.2' } });
        const listed = await requestFrom(system.baseUrl, 'GET', `/api/files/${fileId}`, { token, localAddress: '127.0.0.1' });
        expect(listed.status).toBe(200);
      }
      const own = await requestFrom(system.baseUrl, 'GET', `/api/files/${fileId}`, { token: borrower.token, localAddress: '127.0.0.2' });
      expect(own.status).toBe(200);
    } finally {
      await removeRules(rules);
    }
  });

  it('ends live staff sockets the new list no longer covers, and tells only the main admin what the list now is', async () => {
    const borrower = await registerBorrower(system);
    const rules = await allowList('127.0.0.1', '127.0.0.2');
    try {
      const farOfficer = await socketConnected(socket(system.baseUrl, { token: officer.token }, { localAddress: '127.0.0.2' }));
      const farAuditor = await socketConnected(socket(system.baseUrl, { token: auditor.token }, { localAddress: '127.0.0.2' }));
      const nearOfficer = await socketConnected(socket(system.baseUrl, { token: officer.token }, { localAddress: '127.0.0.1' }));
      const main = await socketConnected(socket(system.baseUrl, { token: mainToken }, { localAddress: '127.0.0.1' }));
      const farBorrower = await socketConnected(socket(system.baseUrl, { token: borrower.token }, { localAddress: '127.0.0.2' }));
      const toMain: any[] = [];
      const toOfficer: any[] = [];
      main.on('settings.updated', (message: unknown) => toMain.push(message));
      nearOfficer.on('settings.updated', (message: unknown) => toOfficer.push(message));
      const officerEnded = socketEnded(farOfficer);
      const auditorEnded = socketEnded(farAuditor);

      const removed = await system.request('DELETE', `/api/admin/allowed-ips/${rules[1]}`, { token: mainToken });
      expect(removed.status).toBe(200);
      expect(await officerEnded).toEqual({ reason: 'address-not-allowed' });
      expect(await auditorEnded).toEqual({ reason: 'address-not-allowed' });
      await until(() => toMain.length > 0, 10_000, 'the main admin to hear of the new list');
      expect(toMain.at(-1).doc.allowedIps.map((rule: { ipAddress: string }) => rule.ipAddress)).toEqual(['127.0.0.1']);
      expect(await stillConnectedAfter(nearOfficer)).toBe(true);
      expect(farBorrower.connected).toBe(true);
      expect(toOfficer).toEqual([]);
      // Over REST too, the list is the main admin's alone.
      expect((await system.request('GET', '/api/admin/allowed-ips', { token: officer.token })).status).toBe(403);
      expect((await system.request('GET', '/api/admin/allowed-ips', { token: mainToken })).status).toBe(200);
    } finally {
      await removeRules([rules[0]]);
    }
  });

  it('reads the socket client address as HTTP does: X-Forwarded-For only from a trusted proxy', async () => {
    const proxied = await startProxiedNode(system, '127.0.0.2');
    nodes.push(proxied);
    const proxiedUrl = `http://127.0.0.1:${proxied.port}`;
    const login = await requestFrom(proxiedUrl, 'POST', '/api/auth/admin-login', { body: SUPERADMIN, localAddress: '127.0.0.1' });
    expect([200, 202]).toContain(login.status);
    const token = login.body.token as string;
    const rules = await allowList('127.0.0.1', '203.0.113.0/24');
    try {
      await socketConnected(socket(proxiedUrl, { token }, { localAddress: '127.0.0.2', headers: { 'X-Forwarded-For': '203.0.113.7' } }));
      const unlisted = await socketRefused(socket(proxiedUrl, { token }, { localAddress: '127.0.0.2', headers: { 'X-Forwarded-For': '198.51.100.7' } }));
      expect(unlisted.data).toEqual({ code: 'IP_NOT_ALLOWED', clientAddress: '198.51.100.7' });
      // 127.0.0.3 is no proxy: what it writes in X-Forwarded-For proves nothing.
      const forged = await socketRefused(socket(proxiedUrl, { token }, { localAddress: '127.0.0.3', headers: { 'X-Forwarded-For': '203.0.113.7' } }));
      expect(forged.data).toEqual({ code: 'IP_NOT_ALLOWED', clientAddress: '127.0.0.3' });
    } finally {
      await removeRules(rules);
    }
  });
});

describe("signing out ends the token's sockets", () => {
  it("on every API node, and only that token's", async () => {
    const second = await system.startApiNode();
    const secondUrl = `http://127.0.0.1:${second.port}`;
    const borrower = await registerBorrower(system);
    const otherSession = await system.request('POST', '/api/auth/login', { body: { phone: borrower.phone, password: 'Sampaguita#2026' } });
    expect(otherSession.status).toBe(200);
    const onSecond = await socketConnected(socket(secondUrl, { token: borrower.token }));
    const onFirst = await socketConnected(socket(system.baseUrl, { token: borrower.token }));
    const otherToken = await socketConnected(socket(secondUrl, { token: otherSession.body.token }));
    const endedOnSecond = socketEnded(onSecond);
    const endedOnFirst = socketEnded(onFirst);

    expect((await system.request('POST', '/api/auth/logout', { token: borrower.token })).status).toBe(200);
    expect(await endedOnSecond).toEqual({ reason: 'signed-out' });
    expect(await endedOnFirst).toEqual({ reason: 'signed-out' });
    expect(await stillConnectedAfter(otherToken)).toBe(true);
    expect((await socketRefused(socket(secondUrl, { token: borrower.token }))).message).toMatch(/sign in/i);
  });

  it("even when the sign-out lands between the handshake's check and the socket's registration", async () => {
    const borrower = await registerBorrower(system);
    const { jti } = jwt.decode(borrower.token) as { jti: string };
    const revoked = system.api.deps.tokens.revoked!;
    const check = revoked.has.bind(revoked);
    let signedOutMidway = false;
    // The handshake's own check answers "not signed out"; the sign-out then completes before the socket is registered.
    revoked.has = async (tokenId: string) => {
      const answer = await check(tokenId);
      if (tokenId === jti && !signedOutMidway) {
        signedOutMidway = true;
        const logout = await system.request('POST', '/api/auth/logout', { token: borrower.token });
        expect(logout.status).toBe(200);
      }
      return answer;
    };
    try {
      const opened = socket(system.baseUrl, { token: borrower.token });
      const ended = socketEnded(opened);
      const outcome = await Promise.race([ended, pause(5_000).then(() => 'still connected 5 s later')]);
      expect(signedOutMidway).toBe(true);
      expect(outcome).toEqual({ reason: 'signed-out' });
    } finally {
      revoked.has = check;
    }
  });
});

describe('a node whose revocation subscription dropped', () => {
  it('checks every live socket again once it is back, so a sign-out announced meanwhile is not lost', async () => {
    const borrower = await registerBorrower(system);
    const { jti, exp } = jwt.decode(borrower.token) as { jti: string; exp: number };
    const opened = await socketConnected(socket(system.baseUrl, { token: borrower.token }));
    const ended = socketEnded(opened);
    // The token is listed as signed out but its announcement never reaches this node (as while its subscriber reconnects)…
    await system.redis.set(`${system.keyPrefix}auth:revoked:${jti}`, '1', 'PX', exp * 1000 - Date.now());
    expect(await stillConnectedAfter(opened, 300)).toBe(true);
    // …then the subscription comes back.
    const subscription = (system.api.realtime as unknown as { revocationRedis: { disconnect(reconnect: boolean): void } }).revocationRedis;
    subscription.disconnect(true);
    const outcome = await Promise.race([ended, pause(10_000).then(() => 'still connected 10 s later')]);
    expect(outcome).toEqual({ reason: 'signed-out' });
  });
});

describe('resuming the change feed', () => {
  const feedKey = () => `${system.keyPrefix}rm:changes`;
  const lastFeedId = async () => (await system.redis.xrevrange(feedKey(), '+', '-', 'COUNT', 1))[0][0];
  /** The gateway has passed `id` once a live socket hears a change made after it. */
  async function changeAndHear(borrower: { token: string }, address: string, listener: Socket): Promise<string> {
    const heard: { streamId: string; doc: { address: string } }[] = [];
    listener.on('member.updated', (message: (typeof heard)[number]) => heard.push(message));
    expect((await system.request('PUT', '/api/user/profile', { token: borrower.token, body: { address } })).status).toBe(200);
    await until(() => heard.some((m) => m.doc.address === address), 10_000, 'the change to be pushed');
    return heard.find((m) => m.doc.address === address)!.streamId;
  }

  it('tells a socket resuming from 0-0 to refetch, and replays nothing', async () => {
    const borrower = await registerBorrower(system);
    const live = await socketConnected(socket(system.baseUrl, { token: borrower.token }));
    await changeAndHear(borrower, '7 Roxas Boulevard, Pasay City', live);
    const fromStart = socket(system.baseUrl, { token: borrower.token, since: '0-0' });
    const replayed: unknown[] = [];
    fromStart.on('member.updated', (message: unknown) => replayed.push(message));
    const resync = new Promise((resolve) => fromStart.once('resync.required', resolve));
    await socketConnected(fromStart);
    expect(await resync).toEqual({ reason: 'from-the-start' });
    // Then it is live like any other socket.
    await changeAndHear(borrower, '8 Roxas Boulevard, Pasay City', fromStart);
    expect(replayed.map((m: any) => m.doc.address)).toEqual(['8 Roxas Boulevard, Pasay City']);
  });

  it(`replays up to ${REPLAY_WINDOW} entries back, and asks for a refetch beyond that without sending any`, async () => {
    const borrower = await registerBorrower(system);
    const live = await socketConnected(socket(system.baseUrl, { token: borrower.token }));
    const beforeFlood = await changeAndHear(borrower, '1 Session Road, Baguio City', live);
    // The feed fills with other rooms' changes (settings.updated is forwarded as it is).
    const flood = system.redis.pipeline();
    for (let i = 0; i < REPLAY_WINDOW + 50; i++) {
      flood.xadd(feedKey(), '*', 'event', 'settings.updated', 'rooms', JSON.stringify(['member:someone-else']), 'version', String(i), 'doc', JSON.stringify({ customLoanStatuses: [] }));
    }
    await flood.exec();
    const afterFlood = await lastFeedId();
    await changeAndHear(borrower, '2 Session Road, Baguio City', live);

    const tooFar = socket(system.baseUrl, { token: borrower.token, since: beforeFlood });
    const tooFarReplayed: unknown[] = [];
    tooFar.on('member.updated', (message: unknown) => tooFarReplayed.push(message));
    tooFar.on('settings.updated', (message: unknown) => tooFarReplayed.push(message));
    const resync = new Promise((resolve) => tooFar.once('resync.required', resolve));
    await socketConnected(tooFar);
    expect(await resync).toEqual({ reason: 'too-far-behind', window: REPLAY_WINDOW });
    await pause(300);
    expect(tooFarReplayed).toEqual([]);

    const near = socket(system.baseUrl, { token: borrower.token, since: afterFlood });
    const nearReplayed: { doc: { address: string } }[] = [];
    let nearResync = false;
    near.on('member.updated', (message: (typeof nearReplayed)[number]) => nearReplayed.push(message));
    near.on('resync.required', () => (nearResync = true));
    await socketConnected(near);
    await until(() => nearReplayed.length >= 1, 10_000, 'the replay');
    expect(nearReplayed.map((m) => m.doc.address)).toEqual(['2 Session Road, Baguio City']);
    expect(nearResync).toBe(false);
  });
});
