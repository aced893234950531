import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSystem, type TestSystem } from '../testing/testSystem.js';
import { registerBorrower } from '../testing/borrowers.js';
import { requestFrom, superadminToken } from '../testing/admins.js';

/**
 * The allow-list is one setting for the whole system, so this file has a system of its own. The
 * test's connections come from 127.0.0.1 (on the list) or 127.0.0.2 (off it).
 */
let system: TestSystem;
let mainToken: string;
const OFF_THE_LIST = '127.0.0.2';

beforeAll(async () => {
  system = await startTestSystem();
  mainToken = await superadminToken(system);
  const added = await system.request('POST', '/api/admin/allowed-ips', { token: mainToken, body: { ipAddress: '127.0.0.1', description: 'the office' } });
  expect(added.status).toBe(201);
});
afterAll(() => system?.stop());

describe('IP allow-list: never open by accident', () => {
  it('stays closed to an address off the list when its read-model document is missing', async () => {
    expect((await requestFrom(system.baseUrl, 'GET', '/api/admin/stats', { token: mainToken, localAddress: OFF_THE_LIST })).status).toBe(403);
    // Redis lost the document (a restart without persistence, an eviction, a rebuild under way).
    await system.redis.del(system.api.deps.readModels.keys.allowedIps);
    const refused = await requestFrom(system.baseUrl, 'GET', '/api/admin/stats', { token: mainToken, localAddress: OFF_THE_LIST });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('IP_NOT_ALLOWED');
    expect((await requestFrom(system.baseUrl, 'GET', '/api/admin/stats', { token: mainToken })).status).toBe(200);
  });

  it('replays no kept answer to an address off the list, even with the same token and Idempotency-Key', async () => {
    const borrower = await registerBorrower(system);
    const key = randomUUID();
    const body = { userId: borrower.id, title: 'Hello', message: 'Your documents were received.', type: 'general' };
    const first = await requestFrom(system.baseUrl, 'POST', '/api/admin/notifications', { token: mainToken, body, headers: { 'Idempotency-Key': key } });
    expect(first.status).toBe(201);
    const replayedHere = await requestFrom(system.baseUrl, 'POST', '/api/admin/notifications', { token: mainToken, body, headers: { 'Idempotency-Key': key } });
    expect(replayedHere.headers['idempotent-replayed']).toBe('true');
    const elsewhere = await requestFrom(system.baseUrl, 'POST', '/api/admin/notifications', { token: mainToken, body, headers: { 'Idempotency-Key': key }, localAddress: OFF_THE_LIST });
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.body.code).toBe('IP_NOT_ALLOWED');
    expect(elsewhere.headers['idempotent-replayed']).toBeUndefined();
  });
});
