import type { Redis } from 'ioredis';
import type { AdminDoc, ApprovalDoc, AuthRecord, LoanDoc, MemberDoc, NotificationDoc, ReadModelKeys, WithdrawalDoc } from '@honeylend/contracts';

/** Queries read only Redis: these are the read models the projections keep. */
export class ReadModelStore {
  constructor(
    private readonly redis: Redis,
    readonly keys: ReadModelKeys,
  ) {}

  private async json<T>(key: string): Promise<T | null> {
    const raw = await this.redis.get(key);
    return raw === null ? null : (JSON.parse(raw) as T);
  }

  /** The documents listed in a sorted set, newest first. */
  private async listed<T>(indexKey: string, docKey: (id: string) => string, limit = 200): Promise<T[]> {
    const ids = await this.redis.zrevrange(indexKey, 0, limit - 1);
    if (ids.length === 0) return [];
    const raws = await this.redis.mget(...ids.map(docKey));
    return raws.filter((raw): raw is string => raw !== null).map((raw) => JSON.parse(raw) as T);
  }

  member(id: string): Promise<MemberDoc | null> {
    return this.json(this.keys.member(id));
  }

  admin(id: string): Promise<AdminDoc | null> {
    return this.json(this.keys.admin(id));
  }

  loan(id: string): Promise<LoanDoc | null> {
    return this.json(this.keys.loan(id));
  }

  /** The loan a human-readable number (LN-2026-000123) names, as payment providers quote it. */
  async loanIdByNumber(loanNumber: string): Promise<string | null> {
    return this.redis.hget(this.keys.loansByNumber, loanNumber);
  }

  loansOfMember(memberId: string): Promise<LoanDoc[]> {
    return this.listed(this.keys.loansByMember(memberId), this.keys.loan);
  }

  /** Every approval request naming the member, in the order they were made. */
  async approvalsOfMember(memberId: string): Promise<ApprovalDoc[]> {
    const ids = (await this.json<string[]>(this.keys.approvalsByMember(memberId))) ?? [];
    if (ids.length === 0) return [];
    const raws = await this.redis.mget(...ids.map(this.keys.approval));
    return raws.filter((raw): raw is string => raw !== null).map((raw) => JSON.parse(raw) as ApprovalDoc);
  }

  withdrawal(id: string): Promise<WithdrawalDoc | null> {
    return this.json(this.keys.withdrawal(id));
  }

  withdrawalsOfMember(memberId: string): Promise<WithdrawalDoc[]> {
    return this.listed(this.keys.withdrawalsByMember(memberId), this.keys.withdrawal);
  }

  /** Newest first, each with what the member has read laid over it (read, and the version of the read). */
  async notificationsOfMember(memberId: string, limit = 100): Promise<NotificationDoc[]> {
    const [listed, read] = await Promise.all([this.redis.lrange(this.keys.notificationsByMember(memberId), 0, limit - 1), this.redis.hgetall(this.keys.notificationsRead(memberId))]);
    return listed.map((raw) => {
      const doc = JSON.parse(raw) as NotificationDoc;
      const readAt = read[doc.id];
      return readAt === undefined ? doc : { ...doc, read: true, version: Math.max(doc.version, Number(readAt)) };
    });
  }

  async auth(id: string): Promise<AuthRecord | null> {
    const record = await this.redis.hgetall(this.keys.auth(id));
    if (!record.role) return null;
    return { role: record.role as AuthRecord['role'], status: record.status as AuthRecord['status'], tokenVersion: Number(record.tokenVersion) };
  }
}
