import type { Redis } from 'ioredis';
import type { ChangeEntry } from '@honeylend/contracts';

/** One Redis command: its name and arguments (a document is made JSON only when its write is kept). */
export type RedisCommand = (string | number)[];

/**
 * The writes one batch of events makes to the read models. Reads see the batch's own pending
 * writes (so a second event in the batch builds on the first), and nothing reaches Redis until
 * the `commands()` are sent in the one atomic step that also moves the checkpoints and appends the
 * change-feed entries — so a change is never stored without being published, or the reverse.
 */
type Write = () => RedisCommand;

/** A write, and for SET/DEL the key it replaces as a whole. */
interface QueuedWrite {
  write: Write;
  replaces?: string;
}

export class ReadModelTransaction {
  /** Documents this batch wrote (null: deleted), kept as objects: the next event reads them without parsing. */
  private readonly pendingValues = new Map<string, { doc: unknown } | null>();
  private readonly writes: QueuedWrite[] = [];
  /** Index in `writes` of the last SET/DEL of each key. */
  private readonly lastReplace = new Map<string, number>();
  readonly changes: ChangeEntry[] = [];

  constructor(private readonly redis: Redis) {}

  /** Values read ahead for the whole batch (prefetch), as Redis held them before any write of the batch. */
  private readonly fetched = new Map<string, string | null>();

  async getJson<T>(key: string): Promise<T | null> {
    const pending = this.pendingValues.get(key);
    if (pending !== undefined) return pending === null ? null : (pending.doc as T);
    const raw = this.fetched.has(key) ? this.fetched.get(key)! : await this.redis.get(key);
    return raw === null ? null : (JSON.parse(raw) as T);
  }

  /**
   * Reads these keys in one MGET, so the projections' reads of them cost no round trip each: a
   * batch of a thousand events otherwise waited on hundreds of GETs, one after the other.
   */
  async prefetch(keys: Iterable<string>): Promise<void> {
    const wanted = [...new Set(keys)].filter((key) => !this.pendingValues.has(key) && !this.fetched.has(key));
    for (let i = 0; i < wanted.length; i += 1_000) {
      const chunk = wanted.slice(i, i + 1_000);
      const values = await this.redis.mget(...chunk);
      chunk.forEach((key, k) => this.fetched.set(key, values[k] ?? null));
    }
  }

  /**
   * The document is frozen (projections build new documents, never change stored ones; a mutation
   * would now throw) and serialized only if no later write of the batch replaces it.
   */
  setJson(key: string, doc: unknown): void {
    if (typeof doc === 'object' && doc !== null) Object.freeze(doc);
    this.pendingValues.set(key, { doc });
    this.replace(key, () => ['SET', key, JSON.stringify(doc)]);
  }

  delete(key: string): void {
    this.pendingValues.set(key, null);
    this.replace(key, () => ['DEL', key]);
  }

  private replace(key: string, write: Write): void {
    this.lastReplace.set(key, this.writes.length);
    this.writes.push({ write, replaces: key });
  }

  hset(key: string, fields: Record<string, string | number>): void {
    this.writes.push({ write: () => ['HSET', key, ...Object.entries(fields).flat()] });
  }

  hdel(key: string, field: string): void {
    this.writes.push({ write: () => ['HDEL', key, field] });
  }

  zadd(key: string, score: number, member: string): void {
    this.writes.push({ write: () => ['ZADD', key, score, member] });
  }

  hincrby(key: string, field: string, by: number): void {
    this.writes.push({ write: () => ['HINCRBY', key, field, by] });
  }

  lpush(key: string, value: string): void {
    this.writes.push({ write: () => ['LPUSH', key, value] });
  }

  zrem(key: string, member: string): void {
    this.writes.push({ write: () => ['ZREM', key, member] });
  }

  publish(change: ChangeEntry): void {
    this.changes.push(change);
  }

  /**
   * A SET or DEL that a later SET or DEL of the same key overwrites is left out: whatever it and
   * the writes between did to that key, the later one replaces. A batch of a thousand events
   * rewrites a busy member's document many times; only its last version travels to Redis.
   */
  commands(): RedisCommand[] {
    return this.writes.filter(({ replaces }, i) => replaces === undefined || this.lastReplace.get(replaces) === i).map(({ write }) => write());
  }

  get isEmpty(): boolean {
    return this.writes.length === 0 && this.changes.length === 0;
  }
}
