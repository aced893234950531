import type { Redis } from 'ioredis';

/** Deletes every key starting with `prefix` (SCAN + UNLINK, never KEYS or FLUSHDB: the database may be shared). */
export async function deleteKeys(redis: Redis, prefix: string): Promise<number> {
  if (!prefix.startsWith('bench-')) throw new Error(`refusing to delete keys outside the bench's own prefix: ${prefix}`);
  let deleted = 0;
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 5_000);
    cursor = next;
    if (keys.length > 0) deleted += await redis.unlink(...keys);
  } while (cursor !== '0');
  return deleted;
}
