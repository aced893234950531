import type { Redis } from 'ioredis';
import { ApiError } from '../http/apiError.js';

/**
 * Brute-force brake for logins. Per account: after 5 consecutive failures the account waits 30 s,
 * doubling with each further failure up to one hour — never a permanent lock, so the owner always
 * gets back in. Per client address: at most 100 failed logins an hour across all accounts.
 *
 * An attempt is counted as a failure the moment it is let through, before the password is checked,
 * and forgiven when it proves right. Checking first and counting after would let a burst of
 * concurrent guesses all pass the check while the first ones are still hashing.
 */
const FREE_FAILURES = 5;
const FIRST_BACKOFF_MS = 30_000;
const MAX_BACKOFF_MS = 3_600_000;
const IP_FAILURES_PER_HOUR = 100;
const IP_WINDOW_MS = 3_600_000;

// KEYS: account hash, address counter. ARGV: now, free failures, first backoff, max backoff, address limit, address window.
// Answers {1, 0} when the attempt may go ahead, {0, milliseconds to wait} when it may not.
const BEGIN_ATTEMPT_SCRIPT = `
local now = tonumber(ARGV[1])
local lockedUntil = tonumber(redis.call('HGET', KEYS[1], 'lockedUntil') or '0')
if lockedUntil > now then return {0, lockedUntil - now} end
local addressFailures = tonumber(redis.call('GET', KEYS[2]) or '0')
if addressFailures >= tonumber(ARGV[5]) then return {0, math.max(1000, redis.call('PTTL', KEYS[2]))} end
local failures = redis.call('HINCRBY', KEYS[1], 'failures', 1)
if failures >= tonumber(ARGV[2]) then
  local backoff = math.min(tonumber(ARGV[3]) * 2 ^ (failures - tonumber(ARGV[2])), tonumber(ARGV[4]))
  redis.call('HSET', KEYS[1], 'lockedUntil', string.format('%d', now + backoff))
end
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[4]) * 2)
if redis.call('INCR', KEYS[2]) == 1 then redis.call('PEXPIRE', KEYS[2], tonumber(ARGV[6])) end
return {1, 0}
`;

// KEYS: account hash, address counter. The right password clears the account's run of failures
// and takes back the failure this attempt was counted as at the address.
const ATTEMPT_SUCCEEDED_SCRIPT = `
redis.call('DEL', KEYS[1])
if tonumber(redis.call('GET', KEYS[2]) or '0') > 0 then redis.call('DECR', KEYS[2]) end
return 1
`;

export class LoginThrottle {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private accountKey(account: string) {
    return `${this.prefix}throttle:login:account:${account}`;
  }
  private addressKey(ip: string) {
    return `${this.prefix}throttle:login:ip:${ip}`;
  }

  /** Lets one attempt go ahead (counted as failed until `succeeded`), or throws 429 with the wait. */
  async beginAttempt(account: string, ip: string, now: number): Promise<void> {
    const answer = await this.redis.eval(
      BEGIN_ATTEMPT_SCRIPT,
      2,
      this.accountKey(account),
      this.addressKey(ip),
      now,
      FREE_FAILURES,
      FIRST_BACKOFF_MS,
      MAX_BACKOFF_MS,
      IP_FAILURES_PER_HOUR,
      IP_WINDOW_MS,
    );
    if (!Array.isArray(answer) || typeof answer[0] !== 'number' || typeof answer[1] !== 'number') {
      throw new Error(`unexpected answer from the login throttle script: ${JSON.stringify(answer)}`);
    }
    if (answer[0] === 0) throw tooMany(Math.max(1, Math.ceil(answer[1] / 1000)));
  }

  async succeeded(account: string, ip: string): Promise<void> {
    await this.redis.eval(ATTEMPT_SUCCEEDED_SCRIPT, 2, this.accountKey(account), this.addressKey(ip));
  }
}

function tooMany(retryAfterSeconds: number): ApiError {
  return new ApiError(429, 'TOO_MANY_ATTEMPTS', `Too many attempts. Please try again in ${retryAfterSeconds} seconds.`, {
    retryAfterSeconds,
  });
}
