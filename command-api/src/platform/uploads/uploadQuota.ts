import type { Redis } from 'ioredis';
import { ApiError } from '../errors/apiError.js';

/**
 * How much one member may upload in a day (UTC): enough for every document several times over,
 * not enough to fill the disk. Checked and taken in one atomic step once the size is known.
 */
export const UPLOAD_QUOTA = { filesPerDay: 20, bytesPerDay: 40 * 1024 * 1024 } as const;

// KEYS: the member's day. ARGV: bytes (0: only ask whether one more fits), file limit, byte limit, seconds to keep.
const TAKE_SCRIPT = `
local files = tonumber(redis.call('HGET', KEYS[1], 'files') or '0')
local bytes = tonumber(redis.call('HGET', KEYS[1], 'bytes') or '0')
local adding = tonumber(ARGV[1])
if files + 1 > tonumber(ARGV[2]) or bytes + adding > tonumber(ARGV[3]) then return 0 end
if adding > 0 then
  redis.call('HINCRBY', KEYS[1], 'files', 1)
  redis.call('HINCRBY', KEYS[1], 'bytes', adding)
  redis.call('EXPIRE', KEYS[1], tonumber(ARGV[4]))
end
return 1
`;

export class UploadQuota {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  /** Throws 429 (Retry-After: the next UTC midnight) unless one more upload of `bytes` fits today; takes it when `bytes` > 0. */
  async take(memberId: string, bytes: number, now: Date): Promise<void> {
    const day = now.toISOString().slice(0, 10);
    const answer = await this.redis.eval(TAKE_SCRIPT, 1, `${this.prefix}quota:uploads:${memberId}:${day}`, bytes, UPLOAD_QUOTA.filesPerDay, UPLOAD_QUOTA.bytesPerDay, 2 * 86_400);
    if (answer === 1) return;
    const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
    const retryAfterSeconds = Math.max(1, Math.ceil((midnight - now.getTime()) / 1000));
    throw new ApiError(429, 'UPLOAD_QUOTA_REACHED', `You have uploaded as much as a day allows (${UPLOAD_QUOTA.filesPerDay} images, ${UPLOAD_QUOTA.bytesPerDay / 1024 / 1024} MB). Please try again tomorrow.`, {
      retryAfterSeconds,
    });
  }
}
