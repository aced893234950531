import type { ChainableCommander, Redis } from 'ioredis';
import type { ChangeEntry } from '@honeylend/contracts';

/**
 * The writes one batch of events makes to the read models. Reads see the batch's own pending
 * writes (so a second event in the batch builds on the first), and nothing reaches Redis until
 * `commands` are queued into the single MULTI that also moves the checkpoints and appends the
 * change-feed entries — so a change is never stored without being published, or the reverse.
 */
type Write = (multi: ChainableCommander) => void;

export class ReadModelTransaction {
  private readonly pendingValues = new Map<string, string | null>();
  private readonly writes: Write[] = [];
  readonly changes: ChangeEntry[] = [];

  constructor(private readonly redis: Redis) {}

  async getJson<T>(key: string): Promise<T | null> {
    const raw = this.pendingValues.has(key) ? this.pendingValues.get(key)! : await this.redis.get(key);
    return raw === null ? null : (JSON.parse(raw) as T);
  }

  setJson(key: string, doc: unknown): void {
    const raw = JSON.stringify(doc);
    this.pendingValues.set(key, raw);
    this.writes.push((multi) => multi.set(key, raw));
  }

  delete(key: string): void {
    this.pendingValues.set(key, null);
    this.writes.push((multi) => multi.del(key));
  }

  hset(key: string, fields: Record<string, string | number>): void {
    this.writes.push((multi) => multi.hset(key, fields));
  }

  hdel(key: string, field: string): void {
    this.writes.push((multi) => multi.hdel(key, field));
  }

  zadd(key: string, score: number, member: string): void {
    this.writes.push((multi) => multi.zadd(key, score, member));
  }

  hincrby(key: string, field: string, by: number): void {
    this.writes.push((multi) => multi.hincrby(key, field, by));
  }

  lpush(key: string, value: string): void {
    this.writes.push((multi) => multi.lpush(key, value));
  }

  zrem(key: string, member: string): void {
    this.writes.push((multi) => multi.zrem(key, member));
  }

  publish(change: ChangeEntry): void {
    this.changes.push(change);
  }

  queueWrites(multi: ChainableCommander): void {
    for (const write of this.writes) write(multi);
  }

  get isEmpty(): boolean {
    return this.writes.length === 0 && this.changes.length === 0;
  }
}
