import type { Redis } from 'ioredis';
import type { AdminDoc, AuthRecord, MemberDoc, ReadModelKeys } from '@honeylend/contracts';

/** Queries read only Redis: these are the read models the projections keep. */
export class ReadModelStore {
  constructor(
    private readonly redis: Redis,
    readonly keys: ReadModelKeys,
  ) {}

  async member(id: string): Promise<MemberDoc | null> {
    const raw = await this.redis.get(this.keys.member(id));
    return raw === null ? null : (JSON.parse(raw) as MemberDoc);
  }

  async admin(id: string): Promise<AdminDoc | null> {
    const raw = await this.redis.get(this.keys.admin(id));
    return raw === null ? null : (JSON.parse(raw) as AdminDoc);
  }

  async auth(id: string): Promise<AuthRecord | null> {
    const record = await this.redis.hgetall(this.keys.auth(id));
    if (!record.role) return null;
    return { role: record.role as AuthRecord['role'], status: record.status as AuthRecord['status'], tokenVersion: Number(record.tokenVersion) };
  }
}
