import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSystem, SUPERADMIN, type TestSystem } from '../../../cli/src/testing/testSystem.js';
import { registerBorrower, resetByStaff } from '../../../cli/src/testing/borrowers.js';
import { reportFigure } from '../support/figures.js';

const SECRET = 'test-secret-that-is-long-enough-for-hs256';
let system: TestSystem;
beforeAll(async () => {
  system = await startTestSystem();
});
afterAll(() => system?.stop());

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('tokens an attacker might try', () => {
  it('refuses every forged, expired, misaddressed or ended token (figure: accepted 0)', async () => {
    const borrower = await registerBorrower(system);
    const now = Math.floor(Date.now() / 1000);
    const claims = { sub: borrower.id, role: 'borrower', tv: 0, iss: 'honeylend', aud: 'honeylend-api', iat: now, exp: now + 3600, jti: 'x' };
    const sign = (payload: object, secret = SECRET) => jwt.sign(payload, secret, { algorithm: 'HS256' });

    const forged: Record<string, string> = {
      'alg none': `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(claims)}.`,
      'another secret': sign(claims, 'a-different-secret-of-the-same-length!!'),
      expired: sign({ ...claims, iat: now - 7200, exp: now - 3600 }),
      'wrong audience': sign({ ...claims, aud: 'someone-else' }),
      'wrong issuer': sign({ ...claims, iss: 'someone-else' }),
      'admin role claimed by a borrower': sign({ ...claims, role: 'superadmin' }),
      'older token version': sign({ ...claims, tv: 7 }),
    };
    const accepted: string[] = [];
    for (const [name, token] of Object.entries(forged)) {
      const res = await system.request('GET', '/api/user/profile', { token });
      if (res.status !== 401) accepted.push(`${name}: ${res.status}`);
    }

    // A real token, signed out: refused from then on.
    const signedIn = await system.request('POST', '/api/auth/login', { body: { phone: borrower.phone, password: 'Sampaguita#2026' } });
    expect((await system.request('GET', '/api/user/profile', { token: signedIn.body.token })).status).toBe(200);
    expect((await system.request('POST', '/api/auth/logout', { token: signedIn.body.token })).status).toBe(200);
    const afterLogout = await system.request('GET', '/api/user/profile', { token: signedIn.body.token });
    if (afterLogout.status !== 401) accepted.push(`after logout: ${afterLogout.status}`);
    // Signing out one token leaves the member's other sessions alone.
    expect((await system.request('GET', '/api/user/profile', { token: borrower.token })).status).toBe(200);

    // After a password reset staff started (the member choosing the new one with the texted code): 401. After suspension: 403 with accountStatus.
    const admin = await system.request('POST', '/api/auth/admin-login', { body: SUPERADMIN });
    const fresh = await resetByStaff(system, admin.body.token, borrower, 'Ilang-Ilang#2027');
    const afterReset = await system.request('GET', '/api/user/profile', { token: borrower.token });
    if (afterReset.status !== 401) accepted.push(`after password reset: ${afterReset.status}`);
    await system.request('PUT', `/api/admin/users/${borrower.id}`, { token: admin.body.token, body: { status: 'suspended' } });
    const afterSuspension = await system.request('GET', '/api/user/profile', { token: fresh.token });
    if (afterSuspension.status !== 403 || afterSuspension.body.accountStatus !== 'suspended') accepted.push(`after suspension: ${afterSuspension.status}`);

    reportFigure({ check: '10 tokens', name: `accepted of ${Object.keys(forged).length + 3} bad tokens`, value: accepted.length, target: '0' });
    expect(accepted).toEqual([]);
  });
});
