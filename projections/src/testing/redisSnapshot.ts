import type { Redis } from 'ioredis';

/** Every key under a prefix with its type and content, for "nothing changed" assertions. */
export async function snapshotKeys(redis: Redis, prefix: string): Promise<Record<string, unknown>> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    cursor = next;
    keys.push(...found);
  } while (cursor !== '0');
  const snapshot: Record<string, unknown> = {};
  for (const key of keys.sort()) {
    const type = await redis.type(key);
    if (type === 'string') snapshot[key] = await redis.get(key);
    else if (type === 'hash') snapshot[key] = await redis.hgetall(key);
    else if (type === 'zset') snapshot[key] = await redis.zrange(key, 0, -1, 'WITHSCORES');
    else if (type === 'set') snapshot[key] = (await redis.smembers(key)).sort();
    else if (type === 'list') snapshot[key] = await redis.lrange(key, 0, -1);
    else if (type === 'stream') snapshot[key] = await redis.xrange(key, '-', '+');
    else snapshot[key] = type;
  }
  return snapshot;
}

export async function deleteKeys(redis: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    cursor = next;
    if (found.length) await redis.del(...found);
  } while (cursor !== '0');
}
