import type { ApiServer } from '@honeylend/command-api';
import { streams } from '@honeylend/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSystem, SUPERADMIN, type TestSystem } from '../testing/testSystem.js';
import { registerBorrower } from '../testing/borrowers.js';
import { createAdmin, requestFrom, startProxiedNode, superadminToken, type TestAdmin } from '../testing/admins.js';

/**
 * The allow-list is one setting for the whole system, so this file has a system of its own.
 * The main node sees the test's connections from 127.0.0.1, or 127.0.0.2 when the test binds
 * that loopback address; the proxied node trusts 127.0.0.1 as its load balancer and reads
 * X-Forwarded-For from it.
 */
let system: TestSystem;
let proxied: ApiServer;
let mainToken: string;
let officer: TestAdmin;
const proxiedUrl = () => `http://127.0.0.1:${proxied.port}`;

beforeAll(async () => {
  system = await startTestSystem();
  mainToken = await superadminToken(system);
  officer = await createAdmin(system, mainToken);
  proxied = await startProxiedNode(system, '127.0.0.1, 10.0.0.0/8');
});
afterAll(async () => {
  await proxied?.close();
  await system?.stop();
});

const adminLoginVia = (baseUrl: string, headers: Record<string, string> = {}, localAddress?: string) =>
  requestFrom(baseUrl, 'POST', '/api/auth/admin-login', { body: { username: SUPERADMIN.username, password: SUPERADMIN.password }, headers, localAddress });

async function rules(token = mainToken, baseUrl = system.baseUrl, headers: Record<string, string> = {}): Promise<any[]> {
  const res = await requestFrom(baseUrl, 'GET', '/api/admin/allowed-ips', { token, headers });
  if (res.status !== 200) throw new Error(`could not read the allow-list: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

async function removeEveryRule(token: string, baseUrl = system.baseUrl, headers: Record<string, string> = {}) {
  // Newest first: the rule covering the caller was added first here, and goes last (to an empty list).
  for (const rule of [...(await rules(token, baseUrl, headers))].reverse()) {
    const res = await requestFrom(baseUrl, 'DELETE', `/api/admin/allowed-ips/${rule.id}`, { token, headers });
    if (res.status !== 200) throw new Error(`could not remove ${rule.ipAddress}: ${res.status} ${JSON.stringify(res.body)}`);
  }
}

describe('IP allow-list: managing it', () => {
  it('is the main admin’s alone: an ordinary admin gets 403, a borrower 403, nobody 401', async () => {
    const borrower = await registerBorrower(system, 'Not An Admin');
    for (const [method, path, body] of [
      ['GET', '/api/admin/allowed-ips', undefined],
      ['POST', '/api/admin/allowed-ips', { ipAddress: '203.0.113.7' }],
      ['DELETE', '/api/admin/allowed-ips/00000000-0000-4000-8000-000000000000', undefined],
    ] as const) {
      expect((await system.request(method, path, { body })).status).toBe(401);
      const asOfficer = await system.request(method, path, { body, token: officer.token });
      expect(asOfficer.status).toBe(403);
      expect(asOfficer.body).toMatchObject({ code: 'MAIN_ADMIN_ONLY', message: 'Only the main admin can manage the allowed IP addresses.' });
      expect((await system.request(method, path, { body, token: borrower.token })).body.code).toBe('ACCESS_DENIED');
    }
  });

  it('validates addresses with the spec message and accepts IPv4, IPv6 and CIDR ranges in canonical form', async () => {
    const missing = await system.request('POST', '/api/admin/allowed-ips', { token: mainToken, body: { description: 'Office' } });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe('Please enter an IP address');
    expect((await system.request('POST', '/api/admin/allowed-ips', { token: mainToken, body: { ipAddress: '  ' } })).body.message).toBe('Please enter an IP address');
    for (const invalid of ['300.1.1.1', '10.0.0.0/33', 'example.com', '2001:db8::/129', '1.2.3.4/24/1', 'fe80::1%eth0']) {
      const res = await system.request('POST', '/api/admin/allowed-ips', { token: mainToken, body: { ipAddress: invalid } });
      expect(res.status, invalid).toBe(400);
      expect(res.body.details.fields.ipAddress).toBe('Enter an IPv4 or IPv6 address or a CIDR range, e.g. 203.0.113.7 or 203.0.113.0/24');
    }
    // The first rule must cover the main admin's own address (127.0.0.1), or they would be locked out.
    const lockout = await system.request('POST', '/api/admin/allowed-ips', { token: mainToken, body: { ipAddress: '203.0.113.0/24' } });
    expect(lockout.status).toBe(409);
    expect(lockout.body).toMatchObject({ code: 'SELF_LOCKOUT', clientAddress: '127.0.0.1' });
    expect(lockout.body.message).toContain('This would lock you out');

    const own = await system.request('POST', '/api/admin/allowed-ips', { token: mainToken, body: { ipAddress: '127.0.0.1', description: 'This machine' } });
    expect(own.status).toBe(201);
    expect(own.body).toMatchObject({ ipAddress: '127.0.0.1', description: 'This machine', id: expect.any(String), createdAt: expect.any(String) });
    const v6 = await system.request('POST', '/api/admin/allowed-ips', { token: mainToken, body: { ipAddress: '2001:0DB8:0000::0001' } });
    expect(v6.body.ipAddress).toBe('2001:db8::1');
    const mapped = await system.request('POST', '/api/admin/allowed-ips', { token: mainToken, body: { ipAddress: '::ffff:198.51.100.0/120' } });
    expect(mapped.body.ipAddress).toBe('198.51.100.0/24');
    const duplicate = await system.request('POST', '/api/admin/allowed-ips', { token: mainToken, body: { ipAddress: '2001:db8::1' } });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.code).toBe('ALLOWED_IP_EXISTS');
    expect((await rules()).map((r) => r.ipAddress)).toEqual(['127.0.0.1', '2001:db8::1', '198.51.100.0/24']);

    // Removing the rule that covers the main admin, while others remain, is refused too.
    const removeOwn = await system.request('DELETE', `/api/admin/allowed-ips/${own.body.id}`, { token: mainToken });
    expect(removeOwn.status).toBe(409);
    expect(removeOwn.body.code).toBe('SELF_LOCKOUT');
    expect((await system.request('DELETE', '/api/admin/allowed-ips/00000000-0000-4000-8000-000000000000', { token: mainToken })).status).toBe(404);

    const events = await system.store.readStream(streams.allowedIps);
    expect(events.map((e) => e.type)).toEqual(['AllowedIpAdded', 'AllowedIpAdded', 'AllowedIpAdded']);
    expect(events[0].metadata).toMatchObject({ actorId: expect.any(String), ip: '127.0.0.1' });
    await removeEveryRule(mainToken);
    expect(await rules()).toEqual([]);
  });
});

describe('IP allow-list: enforcement', () => {
  it('blocks a non-listed address on every admin route and the admin sign-in, and lets a listed one through', async () => {
    await system.request('POST', '/api/admin/allowed-ips', { token: mainToken, body: { ipAddress: '127.0.0.1', description: 'This machine' } });
    try {
      // 127.0.0.2 is another loopback address: the same machine, but not on the list.
      const blockedRoutes = [
        ['GET', '/api/admin/stats'],
        ['GET', '/api/admin/users'],
        ['GET', '/api/admin/loans'],
        ['GET', '/api/admin/withdrawals'],
        ['GET', '/api/admin/all-users'],
        ['GET', '/api/admin/allowed-ips'],
        ['GET', '/api/admin/events'],
      ] as const;
      for (const [method, path] of blockedRoutes) {
        const blocked = await requestFrom(system.baseUrl, method, path, { token: mainToken, localAddress: '127.0.0.2' });
        expect(blocked.status, path).toBe(403);
        expect(blocked.body).toMatchObject({ code: 'IP_NOT_ALLOWED', details: { clientAddress: '127.0.0.2' } });
        const allowed = await requestFrom(system.baseUrl, method, path, { token: mainToken, localAddress: '127.0.0.1' });
        expect(allowed.status, path).toBe(200);
      }
      const login = await adminLoginVia(system.baseUrl, {}, '127.0.0.2');
      expect(login.status).toBe(403);
      expect(login.body.code).toBe('IP_NOT_ALLOWED');
      expect(login.body.token).toBeUndefined();
      // A borrower's own routes are not behind the allow-list.
      const borrower = await registerBorrower(system, 'Anywhere Borrower');
      expect((await requestFrom(system.baseUrl, 'GET', '/api/user/profile', { token: borrower.token, localAddress: '127.0.0.2' })).status).toBe(200);
    } finally {
      await removeEveryRule(mainToken);
    }
  });

  it('honours X-Forwarded-For only from a trusted proxy, reading the right-most untrusted hop', async () => {
    await system.request('POST', '/api/admin/allowed-ips', { token: mainToken, body: { ipAddress: '127.0.0.1' } });
    await system.request('POST', '/api/admin/allowed-ips', { token: mainToken, body: { ipAddress: '203.0.113.0/24', description: 'Head office' } });
    try {
      // Through the proxied node (it trusts 127.0.0.1 and 10.0.0.0/8): the client is the forwarded address.
      const office = await adminLoginVia(proxiedUrl(), { 'X-Forwarded-For': '203.0.113.9' });
      expect(office.status).toBe(200);
      const officeToken = office.body.token as string;
      const outsider = await adminLoginVia(proxiedUrl(), { 'X-Forwarded-For': '198.51.100.7' });
      expect(outsider.status).toBe(403);
      expect(outsider.body.details.clientAddress).toBe('198.51.100.7');
      // A client cannot pass for the office by writing the office into the header itself: the
      // proxy appends the real peer, and the right-most untrusted hop is the client.
      const spoofed = await requestFrom(proxiedUrl(), 'GET', '/api/admin/stats', { token: officeToken, headers: { 'X-Forwarded-For': '203.0.113.9, 198.51.100.7' } });
      expect(spoofed.status).toBe(403);
      // Hops through further trusted proxies (10.0.0.0/8) are skipped.
      const chained = await requestFrom(proxiedUrl(), 'GET', '/api/admin/stats', { token: officeToken, headers: { 'X-Forwarded-For': '198.51.100.7, 203.0.113.9, 10.1.2.3' } });
      expect(chained.status).toBe(200);

      // The main node trusts no proxy: the header changes nothing there, in either direction.
      const ignored = await requestFrom(system.baseUrl, 'GET', '/api/admin/stats', { token: mainToken, headers: { 'X-Forwarded-For': '198.51.100.7' } });
      expect(ignored.status).toBe(200);
      const notAPass = await requestFrom(system.baseUrl, 'GET', '/api/admin/stats', { token: mainToken, headers: { 'X-Forwarded-For': '203.0.113.9' }, localAddress: '127.0.0.2' });
      expect(notAPass.status).toBe(403);
      expect(notAPass.body.details.clientAddress).toBe('127.0.0.2');

      // Events record the client behind the proxy, not the proxy.
      const created = await requestFrom(proxiedUrl(), 'POST', '/api/admin/loan-statuses', { token: officeToken, body: { status: 'from_the_office' }, headers: { 'X-Forwarded-For': '203.0.113.9' } });
      expect(created.status).toBe(201);
      const [defined] = await system.store.readStream(streams.loanStatuses);
      expect(defined.metadata.ip).toBe('203.0.113.9');
      // From the office the main admin may drop the rule for this machine: they stay covered.
      const thisMachine = (await rules()).find((rule) => rule.ipAddress === '127.0.0.1');
      const dropped = await requestFrom(proxiedUrl(), 'DELETE', `/api/admin/allowed-ips/${thisMachine.id}`, { token: officeToken, headers: { 'X-Forwarded-For': '203.0.113.9' } });
      expect(dropped.status).toBe(200);
      expect((await requestFrom(system.baseUrl, 'GET', '/api/admin/stats', { token: mainToken })).status).toBe(403);
      await removeEveryRule(officeToken, proxiedUrl(), { 'X-Forwarded-For': '203.0.113.9' });
    } finally {
      if ((await requestFrom(system.baseUrl, 'GET', '/api/admin/stats', { token: mainToken })).status === 200) await removeEveryRule(mainToken);
    }
    expect((await requestFrom(system.baseUrl, 'GET', '/api/admin/stats', { token: mainToken, localAddress: '127.0.0.2' })).status).toBe(200);
  });
});

describe('admin sign-in', () => {
  it('signs the main admin in by ADMIN_USERNAME and answers wrong details with one message', async () => {
    const ok = await system.request('POST', '/api/auth/admin-login', { body: { username: 'ADMIN', password: SUPERADMIN.password } });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ success: true, user: { role: 'superadmin', isMainAdmin: true } });
    for (const body of [
      { username: 'admin', password: 'wrong-password' },
      { username: 'nobody-here', password: SUPERADMIN.password },
    ]) {
      const res = await system.request('POST', '/api/auth/admin-login', { body });
      expect(res.status).toBe(401);
      expect(res.body.message).toBe('Invalid username or password');
    }
    const empty = await system.request('POST', '/api/auth/admin-login', { body: {} });
    expect(empty.status).toBe(400);
  });

  it('throttles repeated failures like the borrower sign-in', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await system.request('POST', '/api/auth/admin-login', { body: { username: officer.email, password: 'not-the-password' } })).status);
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses[5]).toBe(429);
  });
});
