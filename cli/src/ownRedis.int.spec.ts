import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '@honeylend/observability';
import { findRedisServer, provideRedis, RedisNotInstalled } from './ownRedis.js';
import { checkRedis } from './redisCheck.js';
import { freePort } from './testing/freePort.js';
import { REDIS_URL } from './testing/testSystem.js';

const dirs: string[] = [];
const dataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'lending-redis-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
const logger = createLogger('test', { level: 'silent' });

describe('the Redis lending start uses', () => {
  it('is a private redis-server it starts, with its data under the data directory, when REDIS_URL is unset and nothing answers', async () => {
    expect(findRedisServer(), 'redis-server is installed on this machine').not.toBeNull();
    const nothingThere = `redis://127.0.0.1:${await freePort()}`;
    const dir = dataDir();
    const { url, own } = await provideRedis({ redisUrlGiven: false, redisUrl: nothingThere, dataDir: dir, logger });
    expect(own).not.toBeNull();
    expect(url).toBe(own!.url);
    expect(own!.dir).toBe(join(dir, 'redis'));
    const redis = new Redis(url);
    try {
      await redis.set('honeylend:test', 'kept');
      expect(await redis.config('GET', 'maxmemory-policy')).toEqual(['maxmemory-policy', 'noeviction']);
      expect(await redis.config('GET', 'appendonly')).toEqual(['appendonly', 'yes']);
      expect(await redis.config('GET', 'dir')).toEqual(['dir', join(dir, 'redis')]);
    } finally {
      redis.disconnect();
    }
    await own!.stop();
    // Gone with the process that started it, its writes on disk under the data directory.
    await expect(checkRedis(url, 500)).rejects.toThrow();
    expect(existsSync(join(dir, 'redis', 'appendonlydir'))).toBe(true);
  });

  it('is the one already answering at the default address, or the one REDIS_URL names, and then nothing is started', async () => {
    expect(
      await provideRedis({
        redisUrlGiven: false,
        redisUrl: REDIS_URL,
        dataDir: dataDir(),
        logger,
        findBinary: () => {
          throw new Error('must not look for redis-server');
        },
      }),
    ).toEqual({ url: REDIS_URL, own: null });
    const unanswered = `redis://127.0.0.1:${await freePort()}`;
    expect(await provideRedis({ redisUrlGiven: true, redisUrl: unanswered, dataDir: dataDir(), logger })).toEqual({ url: unanswered, own: null });
  });

  it('says how to install redis-server when none answers and none is installed', async () => {
    const nothingThere = `redis://127.0.0.1:${await freePort()}`;
    const refused = provideRedis({ redisUrlGiven: false, redisUrl: nothingThere, dataDir: dataDir(), logger, findBinary: () => findRedisServer('/nonexistent') });
    await expect(refused).rejects.toBeInstanceOf(RedisNotInstalled);
    await expect(refused).rejects.toThrow(/redis-server is not installed.*apt-get install redis-server.*REDIS_URL/);
  });
});
