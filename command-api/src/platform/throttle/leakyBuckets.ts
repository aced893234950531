import type { Redis } from 'ioredis';

/** A limit as a leaky bucket: up to `capacity` at once, then one more each `leakMs`. A rate, never a lockout. */
export interface BucketLimit {
  capacity: number;
  leakMs: number;
}

// KEYS: one bucket each. ARGV: now, then capacity and leak for each key. All buckets must have room;
// then each takes one drop, in the same script, so concurrent requests can never overshoot a limit.
// Answers {1, 0}, or {0, milliseconds until every bucket has room}.
const TAKE_SCRIPT = `
local now = tonumber(ARGV[1])
local levels = {}
local wait = 0
for i, key in ipairs(KEYS) do
  local capacity, leak = tonumber(ARGV[2 * i]), tonumber(ARGV[2 * i + 1])
  local stored = redis.call('HMGET', key, 'level', 'at')
  -- A clock that stepped back drains nothing (and never fills the bucket).
  local level = tonumber(stored[1] or '0') - math.max(0, now - tonumber(stored[2] or tostring(now))) / leak
  if level < 0 then level = 0 end
  levels[i] = level
  if level + 1 > capacity then wait = math.max(wait, (level + 1 - capacity) * leak) end
end
if wait > 0 then return {0, math.ceil(wait)} end
for i, key in ipairs(KEYS) do
  local capacity, leak = tonumber(ARGV[2 * i]), tonumber(ARGV[2 * i + 1])
  redis.call('HSET', key, 'level', string.format('%.6f', levels[i] + 1), 'at', string.format('%d', now))
  redis.call('PEXPIRE', key, math.ceil(leak * (capacity + 1)))
end
return {1, 0}
`;

/**
 * Request limits kept in Redis, shared by every API node. `take` lets a request through only when
 * every bucket named has room, and counts it in all of them at once.
 */
export class LeakyBuckets {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  /** Null when the request may go ahead; otherwise the seconds until it may. */
  async take(buckets: readonly { key: string; limit: BucketLimit }[], now: number): Promise<number | null> {
    const args: (string | number)[] = [now];
    for (const { limit } of buckets) args.push(limit.capacity, limit.leakMs);
    const answer = await this.redis.eval(TAKE_SCRIPT, buckets.length, ...buckets.map(({ key }) => `${this.prefix}throttle:${key}`), ...args);
    if (!Array.isArray(answer) || typeof answer[0] !== 'number' || typeof answer[1] !== 'number') {
      throw new Error(`unexpected answer from the rate-limit script: ${JSON.stringify(answer)}`);
    }
    return answer[0] === 1 ? null : Math.max(1, Math.ceil(answer[1] / 1000));
  }
}
