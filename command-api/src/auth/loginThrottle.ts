import type { Redis } from 'ioredis';
import { ApiError } from '../http/apiError.js';

/**
 * Brute-force brake for logins. Per account: after 5 consecutive failures the account waits 30 s,
 * doubling with each further failure up to one hour — never a permanent lock, so the owner always
 * gets back in. Per client address: at most 100 failed logins an hour across all accounts.
 */
const FREE_FAILURES = 5;
const FIRST_BACKOFF_MS = 30_000;
const MAX_BACKOFF_MS = 3_600_000;
const IP_FAILURES_PER_HOUR = 100;

export class LoginThrottle {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private accountKey(account: string) {
    return `${this.prefix}throttle:login:account:${account}`;
  }
  private ipKey(ip: string) {
    return `${this.prefix}throttle:login:ip:${ip}`;
  }

  /** Throws 429 when this account or address must wait. */
  async check(account: string, ip: string, now = Date.now()): Promise<void> {
    const [lockedUntil, ipFailures] = await Promise.all([
      this.redis.hget(this.accountKey(account), 'lockedUntil'),
      this.redis.get(this.ipKey(ip)),
    ]);
    const waitMs = Number(lockedUntil ?? 0) - now;
    if (waitMs > 0) throw tooMany(Math.ceil(waitMs / 1000));
    if (Number(ipFailures ?? 0) >= IP_FAILURES_PER_HOUR) {
      const ttl = await this.redis.pttl(this.ipKey(ip));
      throw tooMany(Math.max(1, Math.ceil(ttl / 1000)));
    }
  }

  async recordFailure(account: string, ip: string, now = Date.now()): Promise<void> {
    const key = this.accountKey(account);
    const failures = await this.redis.hincrby(key, 'failures', 1);
    if (failures >= FREE_FAILURES) {
      const backoff = Math.min(FIRST_BACKOFF_MS * 2 ** (failures - FREE_FAILURES), MAX_BACKOFF_MS);
      await this.redis.hset(key, 'lockedUntil', String(now + backoff));
    }
    await this.redis.pexpire(key, MAX_BACKOFF_MS * 2);
    const ipKey = this.ipKey(ip);
    const ipFailures = await this.redis.incr(ipKey);
    if (ipFailures === 1) await this.redis.pexpire(ipKey, 3_600_000);
  }

  async recordSuccess(account: string): Promise<void> {
    await this.redis.del(this.accountKey(account));
  }
}

function tooMany(retryAfterSeconds: number): ApiError {
  return new ApiError(429, 'TOO_MANY_ATTEMPTS', `Too many attempts. Please try again in ${retryAfterSeconds} seconds.`, {
    retryAfterSeconds,
  });
}
