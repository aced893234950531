import type { Redis } from 'ioredis';

/**
 * Every read-model key under `prefix` (the prefix stripped, the change feed left out) with its
 * type and content in one canonical text: strings as stored, hashes and sets sorted, sorted sets
 * and lists in their order. Two keyspaces holding the same bytes give the same snapshot, whatever
 * history (encodings, field insertion order) produced them.
 */
export async function readModelSnapshot(redis: Redis, prefix: string): Promise<Map<string, string>> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', `${prefix}rm:*`, 'COUNT', 1000);
    cursor = next;
    keys.push(...found);
  } while (cursor !== '0');
  const snapshot = new Map<string, string>();
  for (const key of keys.sort()) {
    const name = key.slice(prefix.length);
    if (name === 'rm:changes') continue;
    const type = await redis.type(key);
    let content: unknown;
    if (type === 'string') content = await redis.get(key);
    else if (type === 'hash') content = Object.entries(await redis.hgetall(key)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    else if (type === 'zset') content = await redis.zrange(key, 0, -1, 'WITHSCORES');
    else if (type === 'set') content = (await redis.smembers(key)).sort();
    else if (type === 'list') content = await redis.lrange(key, 0, -1);
    else if (type === 'none')
      continue; // expired or deleted between SCAN and TYPE
    else content = `unexpected type ${type}`;
    snapshot.set(name, `${type} ${JSON.stringify(content)}`);
  }
  return snapshot;
}

export interface SnapshotDifference {
  key: string;
  actual: string | undefined;
  expected: string | undefined;
}

/** Keys missing from `actual`, extra in it, or holding other content than in `expected`. */
export function compareSnapshots(actual: Map<string, string>, expected: Map<string, string>): SnapshotDifference[] {
  const differences: SnapshotDifference[] = [];
  for (const key of new Set([...actual.keys(), ...expected.keys()])) {
    if (actual.get(key) !== expected.get(key)) differences.push({ key, actual: actual.get(key), expected: expected.get(key) });
  }
  return differences.sort((a, b) => (a.key < b.key ? -1 : 1));
}

/** The change feed's entries in order, each as its fields (the stream ids, which differ between runs, left out). */
export async function changeFeedEntries(redis: Redis, prefix: string): Promise<string[]> {
  const entries: string[] = [];
  let from = '-';
  for (;;) {
    const page = await redis.xrange(`${prefix}rm:changes`, from, '+', 'COUNT', 1000);
    for (const [, fields] of page) entries.push(JSON.stringify(fields));
    if (page.length < 1000) return entries;
    from = `(${page[page.length - 1][0]}`;
  }
}
