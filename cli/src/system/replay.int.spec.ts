import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allProjections, rebuildReadModels } from '@honeylend/projections';
import { REDIS_URL, startTestSystem, uniquePhone, type TestSystem } from '../testing/testSystem.js';

let system: TestSystem;
beforeAll(async () => {
  system = await startTestSystem();
});
afterAll(() => system?.stop());

/** Every read-model key but the change feed (which a rebuild keeps as it is), with its content. */
async function readModelSnapshot(redis: Redis, prefix: string): Promise<Record<string, unknown>> {
  const keys = (await redis.keys(`${prefix}rm:*`)).filter((k) => k !== `${prefix}rm:changes`).sort();
  const snapshot: Record<string, unknown> = {};
  for (const key of keys) {
    const type = await redis.type(key);
    snapshot[key] = type === 'string' ? await redis.get(key) : type === 'hash' ? await redis.hgetall(key) : type === 'zset' ? await redis.zrange(key, 0, -1, 'WITHSCORES') : type;
  }
  return snapshot;
}

describe('replay (lending replay)', () => {
  it('rebuilds every read model from the log, repairs damage, and equals the live state', async () => {
    const tokens: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await system.request('POST', '/api/auth/register', { body: { phone: uniquePhone(), password: 'Sampaguita#2026', fullName: `Borrower ${i}` } });
      tokens.push(res.body.token);
      await system.request('PUT', '/api/user/profile', { token: res.body.token, body: { address: `${i} Mabini Street, Quezon City`, bankName: 'UnionBank' } });
    }
    const live = await readModelSnapshot(system.redis, system.keyPrefix);
    expect(Object.keys(live).length).toBeGreaterThan(10);

    // Damage the read models: a corrupted document, a lost key, and a key no event explains.
    const memberKey = Object.keys(live).find((k) => k.includes('rm:member:'))!;
    await system.redis.set(memberKey, JSON.stringify({ corrupted: true }));
    await system.redis.del(Object.keys(live).find((k) => k.includes('rm:auth:'))!);
    await system.redis.set(`${system.keyPrefix}rm:member:ghost`, '{}');
    const changeFeedLength = await system.redis.xlen(`${system.keyPrefix}rm:changes`);

    const redis = new Redis(REDIS_URL);
    try {
      const result = await rebuildReadModels({
        store: system.store,
        redis,
        keyPrefix: system.keyPrefix,
        projections: allProjections,
        logger: { info() {}, warn() {}, error() {} },
      });
      expect(result.events).toBe((await system.store.readAll({ limit: 100_000 })).length);
    } finally {
      redis.disconnect();
    }

    expect(await readModelSnapshot(system.redis, system.keyPrefix)).toEqual(live);
    expect(await system.redis.xlen(`${system.keyPrefix}rm:changes`)).toBe(changeFeedLength);
    expect(await system.redis.keys(`${system.keyPrefix}rebuild-*`)).toEqual([]);
    // The system keeps working on the swapped-in read models.
    const profile = await system.request('GET', '/api/user/profile', { token: tokens[0] });
    expect(profile.status).toBe(200);
  });
});
