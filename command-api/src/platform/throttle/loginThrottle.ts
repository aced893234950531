import type { Redis } from 'ioredis';
import { ApiError } from '../errors/apiError.js';
import { throttleAddress } from './throttleAddress.js';

/**
 * Brute-force brake for logins, in three parts, none of which can lock the owner out for long:
 *
 * - Per account and client address (an IPv6 client by its /64): after 5 failures in a row that
 *   address waits 30 s, doubling up to one hour. Only the address that keeps guessing waits so long.
 * - Per account, across every address: a leaky bucket of 10 failures draining one a minute, so
 *   guesses spread over many addresses still get about one a minute, and the wait is never more
 *   than a minute.
 * - Per client address, across accounts: a leaky bucket of 100 failures draining 100 an hour — a rate,
 *   not a lockout, so thousands of people behind one carrier NAT are slowed, never shut out for an hour.
 *
 * An address that signed in to the account in the last 30 days is held by neither bucket for that
 * account, only by its own run of failures: someone who knows a username, or floods an address the
 * owner shares with guesses on other accounts, cannot keep the owner out. Borrowers and staff are
 * counted apart (their own address buckets), so a flood on one sign-in never holds the other.
 *
 * An attempt is counted as a failure the moment it is let through, before the password is checked,
 * and forgiven when it proves right. Checking first and counting after would let a burst of
 * concurrent guesses all pass the check while the first ones are still hashing.
 */
export const LOGIN_THROTTLE = {
  freeFailures: 5,
  firstBackoffMs: 30_000,
  maxBackoffMs: 3_600_000,
  accountCapacity: 10,
  accountLeakMs: 60_000,
  addressCapacity: 100,
  addressLeakMs: 36_000,
  knownAddressMs: 30 * 24 * 3_600_000,
} as const;

// A leaky bucket's level now: what it held, drained by the time since it was last written.
const BUCKET_LEVEL = `
local function bucketLevel(key, now, leakMs)
  local stored = redis.call('HMGET', key, 'level', 'at')
  local level = tonumber(stored[1] or '0')
  local at = tonumber(stored[2] or tostring(now))
  -- A clock that stepped back drains nothing (and never fills the bucket).
  level = level - math.max(0, now - at) / leakMs
  if level < 0 then level = 0 end
  return level
end
local function setBucket(key, level, now, leakMs, capacity)
  redis.call('HSET', key, 'level', string.format('%.6f', level), 'at', string.format('%d', now))
  redis.call('PEXPIRE', key, math.ceil(leakMs * (capacity + 1)))
end
`;

// KEYS: pair hash, account bucket, address bucket (of the account's side), account's known addresses. ARGV: now, address,
// free failures, first backoff, max backoff, account capacity, account leak, address capacity, address leak.
// Answers {1, 0} when the attempt may go ahead, {0, milliseconds to wait} when it may not.
const BEGIN_ATTEMPT_SCRIPT = `${BUCKET_LEVEL}
local now = tonumber(ARGV[1])
local wait = 0
local lockedUntil = tonumber(redis.call('HGET', KEYS[1], 'lockedUntil') or '0')
if lockedUntil > now then wait = lockedUntil - now end
local known = redis.call('SISMEMBER', KEYS[4], ARGV[2]) == 1
local accountCapacity, accountLeak = tonumber(ARGV[6]), tonumber(ARGV[7])
local addressCapacity, addressLeak = tonumber(ARGV[8]), tonumber(ARGV[9])
local accountLevel = bucketLevel(KEYS[2], now, accountLeak)
if not known and accountLevel + 1 > accountCapacity then
  wait = math.max(wait, (accountLevel + 1 - accountCapacity) * accountLeak)
end
local addressLevel = bucketLevel(KEYS[3], now, addressLeak)
if not known and addressLevel + 1 > addressCapacity then
  wait = math.max(wait, (addressLevel + 1 - addressCapacity) * addressLeak)
end
if wait > 0 then return {0, math.ceil(wait)} end
local failures = redis.call('HINCRBY', KEYS[1], 'failures', 1)
if failures >= tonumber(ARGV[3]) then
  local backoff = math.min(tonumber(ARGV[4]) * 2 ^ (failures - tonumber(ARGV[3])), tonumber(ARGV[5]))
  redis.call('HSET', KEYS[1], 'lockedUntil', string.format('%d', now + backoff))
end
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[5]) * 2)
if not known then
  setBucket(KEYS[2], accountLevel + 1, now, accountLeak, accountCapacity)
  setBucket(KEYS[3], addressLevel + 1, now, addressLeak, addressCapacity)
end
return {1, 0}
`;

// KEYS: as above. ARGV: now, address, known-address lifetime, account leak, account capacity, address leak, address capacity.
// The right password clears this address's run of failures on the account, takes back the failure the
// attempt was counted as (a known address was never counted in the buckets), and remembers the address
// as one the owner uses.
const ATTEMPT_SUCCEEDED_SCRIPT = `${BUCKET_LEVEL}
local now = tonumber(ARGV[1])
redis.call('DEL', KEYS[1])
local known = redis.call('SISMEMBER', KEYS[4], ARGV[2]) == 1
if not known then
  setBucket(KEYS[2], math.max(0, bucketLevel(KEYS[2], now, tonumber(ARGV[4])) - 1), now, tonumber(ARGV[4]), tonumber(ARGV[5]))
  setBucket(KEYS[3], math.max(0, bucketLevel(KEYS[3], now, tonumber(ARGV[6])) - 1), now, tonumber(ARGV[6]), tonumber(ARGV[7]))
end
redis.call('SADD', KEYS[4], ARGV[2])
redis.call('PEXPIRE', KEYS[4], tonumber(ARGV[3]))
return 1
`;

/** Who signs in: a borrower by phone, or staff by username; each side has its own address buckets. */
export interface LoginAccount {
  side: 'member' | 'admin';
  name: string;
}

export class LoginThrottle {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private keys({ side, name }: LoginAccount, address: string): [string, string, string, string] {
    const base = `${this.prefix}throttle:login:`;
    const account = `${side}:${name}`;
    return [`${base}pair:${account}:${address}`, `${base}account:${account}`, `${base}ip:${side}:${address}`, `${base}known:${account}`];
  }

  /** Lets one attempt go ahead (counted as failed until `succeeded`), or throws 429 with the wait. */
  async beginAttempt(account: LoginAccount, ip: string, now: number): Promise<void> {
    const address = throttleAddress(ip);
    const t = LOGIN_THROTTLE;
    const answer = await this.redis.eval(
      BEGIN_ATTEMPT_SCRIPT,
      4,
      ...this.keys(account, address),
      now,
      address,
      t.freeFailures,
      t.firstBackoffMs,
      t.maxBackoffMs,
      t.accountCapacity,
      t.accountLeakMs,
      t.addressCapacity,
      t.addressLeakMs,
    );
    if (!Array.isArray(answer) || typeof answer[0] !== 'number' || typeof answer[1] !== 'number') {
      throw new Error(`unexpected answer from the login throttle script: ${JSON.stringify(answer)}`);
    }
    if (answer[0] === 0) throw tooMany(Math.max(1, Math.ceil(answer[1] / 1000)));
  }

  async succeeded(account: LoginAccount, ip: string, now: number): Promise<void> {
    const address = throttleAddress(ip);
    const t = LOGIN_THROTTLE;
    await this.redis.eval(ATTEMPT_SUCCEEDED_SCRIPT, 4, ...this.keys(account, address), now, address, t.knownAddressMs, t.accountLeakMs, t.accountCapacity, t.addressLeakMs, t.addressCapacity);
  }
}

export function tooMany(retryAfterSeconds: number, message = `Too many attempts. Please try again in ${retryAfterSeconds} seconds.`): ApiError {
  return new ApiError(429, 'TOO_MANY_ATTEMPTS', message, { retryAfterSeconds });
}
