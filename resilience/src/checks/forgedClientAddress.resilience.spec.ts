import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSystem, SUPERADMIN, uniquePhone, type TestSystem } from '../../../cli/src/testing/testSystem.js';
import { requestFrom, superadminToken } from '../../../cli/src/testing/admins.js';
import { reportFigure } from '../support/figures.js';
import { openSocket, socketRefused } from '../../../cli/src/testing/sockets.js';

/**
 * The system trusts no proxy here. The allow-list names 127.0.0.1 (the test's own address, so
 * it can clean up) and 203.0.113.0/24; the attacker connects from 127.0.0.2 — another loopback
 * address, not listed — and writes an allow-listed address into X-Forwarded-For.
 */
let system: TestSystem;
let mainToken: string;
beforeAll(async () => {
  system = await startTestSystem();
  mainToken = await superadminToken(system);
});
afterAll(() => system?.stop());

const ATTACKER = '127.0.0.2';
const FORGED_HEADERS: Record<string, string>[] = [
  { 'X-Forwarded-For': '203.0.113.9' },
  { 'X-Forwarded-For': '203.0.113.9, 127.0.0.1' },
  { 'X-Forwarded-For': '127.0.0.1' },
  { 'X-Real-IP': '203.0.113.9' },
  { Forwarded: 'for=203.0.113.9' },
];
const ADMIN_ROUTES: [string, string][] = [
  ['GET', '/api/admin/stats'],
  ['GET', '/api/admin/users'],
  ['GET', '/api/admin/withdrawals'],
  ['GET', '/api/admin/allowed-ips'],
  ['GET', '/api/admin/events'],
];

describe('forged client address', () => {
  it('an allow-listed address in forwarding headers from an untrusted peer passes nowhere, sockets included, and throttles key on the real peer (figure: bypasses 0)', async () => {
    const rules: string[] = [];
    for (const ipAddress of ['127.0.0.1', '203.0.113.0/24']) {
      const res = await system.request('POST', '/api/admin/allowed-ips', { token: mainToken, body: { ipAddress } });
      expect(res.status).toBe(201);
      rules.push(res.body.id);
    }
    const bypasses: string[] = [];
    const socketBypasses: string[] = [];
    let tried = 0;
    let socketsTried = 0;
    try {
      for (const headers of FORGED_HEADERS) {
        const login = await requestFrom(system.baseUrl, 'POST', '/api/auth/admin-login', { body: SUPERADMIN, headers, localAddress: ATTACKER });
        tried += 1;
        if (login.status !== 403) bypasses.push(`admin-login with ${JSON.stringify(headers)}: ${login.status}`);
        for (const [method, path] of ADMIN_ROUTES) {
          const res = await requestFrom(system.baseUrl, method, path, { token: mainToken, headers, localAddress: ATTACKER });
          tried += 1;
          if (res.status !== 403) bypasses.push(`${method} ${path} with ${JSON.stringify(headers)}: ${res.status}`);
          else expect(res.body.details.clientAddress).toBe(ATTACKER);
        }
      }
      // The same forged headers on staff socket handshakes: joining `admins` would stream every member's data.
      for (const headers of FORGED_HEADERS) {
        const socket = openSocket(system.baseUrl, { token: mainToken }, { localAddress: ATTACKER, headers });
        socketsTried += 1;
        try {
          const refusal = await socketRefused(socket);
          if (refusal.data?.code !== 'IP_NOT_ALLOWED' || refusal.data.clientAddress !== ATTACKER) socketBypasses.push(`socket with ${JSON.stringify(headers)}: ${refusal.message}`);
        } catch {
          socketBypasses.push(`socket with ${JSON.stringify(headers)} joined`);
        } finally {
          socket.disconnect();
        }
      }
    } finally {
      for (const id of [...rules].reverse()) await system.request('DELETE', `/api/admin/allowed-ips/${id}`, { token: mainToken });
    }
    reportFigure({ check: '3 forged client address', name: 'forged-address staff socket joins refused', value: `${socketsTried - socketBypasses.length} / ${socketsTried}`, target: 'all' });
    bypasses.push(...socketBypasses);

    // Failed sign-ins under forged addresses count against the real peer, and no key is made for a forged one.
    const phone = uniquePhone();
    for (const headers of FORGED_HEADERS) {
      const res = await requestFrom(system.baseUrl, 'POST', '/api/auth/login', { body: { phone, password: 'not-the-password' }, headers, localAddress: ATTACKER });
      expect(res.status).toBe(401);
    }
    const throttleKeys = await system.redis.keys(`${system.keyPrefix}throttle:login:ip:*`);
    const forgedKeys = throttleKeys.filter((key) => /203\.0\.113\.9/.test(key));
    if (forgedKeys.length > 0) bypasses.push(`rate-limit keys under forged addresses: ${forgedKeys.join(', ')}`);
    // The per-address throttle is a leaky bucket (a hash): its level is the failures counted, barely drained yet.
    const level = Number(await system.redis.hget(`${system.keyPrefix}throttle:login:ip:member:${ATTACKER}`, 'level'));
    expect(Math.round(level)).toBe(FORGED_HEADERS.length);

    reportFigure({ check: '3 forged client address', name: `bypasses in ${tried} forged requests (+ rate-limit keys)`, value: bypasses.length, target: '0' });
    expect(bypasses).toEqual([]);
  });
});
