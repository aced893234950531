import type { Redis } from 'ioredis';

/**
 * Taken only when nobody holds the lease; the fencing token comes from a counter that only grows,
 * so a later leader's token is always larger than any earlier leader's.
 */
const ACQUIRE = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local token = redis.call('INCR', KEYS[2])
redis.call('SET', KEYS[1], token, 'PX', ARGV[1])
return token
`;

/** Extended only while it is still this holder's. */
const RENEW = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0
`;

/** Given up only while it is still this holder's (a successor's lease is left alone). */
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

export interface LeaderLeaseOptions {
  redis: Redis;
  /** The lease: holds the leader's fencing token while it lives. */
  key: string;
  /** The counter fencing tokens are drawn from. */
  fenceKey: string;
  /** How long the lease lives without being renewed: a dead leader is replaced this long after its last renewal. Default 3 s. */
  ttlMs?: number;
}

/**
 * One projection runner writes at a time: the holder of this Redis lease. The lease carries a
 * fencing token, and the runner's guarded write checks the lease still holds that token in the
 * same script that writes the batch (see ProjectionRunner's `fence`), so a leader that was paused
 * past its lease (a long GC, a stopped VM) and wakes up after a standby took over cannot write
 * anything: Redis refuses the batch, not the old leader's own sense of time.
 */
export class LeaderLease {
  readonly ttlMs: number;
  private held: string | null = null;

  constructor(private readonly options: LeaderLeaseOptions) {
    this.ttlMs = options.ttlMs ?? 3_000;
  }

  /** The fencing token while this process believes it leads (Redis has the last word at every write). */
  get token(): string | null {
    return this.held;
  }

  /** Takes the lease when it is free; answers whether this process now leads. */
  async tryAcquire(): Promise<boolean> {
    const token = await this.options.redis.eval(ACQUIRE, 2, this.options.key, this.options.fenceKey, this.ttlMs);
    this.held = token === 0 ? null : String(token);
    return this.held !== null;
  }

  /** Extends the lease; false (and no longer leading) when another runner holds it now or it expired. */
  async renew(): Promise<boolean> {
    if (this.held === null) return false;
    const renewed = await this.options.redis.eval(RENEW, 1, this.options.key, this.held, this.ttlMs);
    if (renewed !== 1) this.held = null;
    return this.held !== null;
  }

  /** Whether Redis still holds this holder's token (after a refused write: lost, or only raced?). */
  async stillHeld(): Promise<boolean> {
    if (this.held === null) return false;
    if ((await this.options.redis.get(this.options.key)) !== this.held) this.held = null;
    return this.held !== null;
  }

  /** The lease key, for writes fenced by it. */
  get key(): string {
    return this.options.key;
  }

  /** Gives the lease up at a clean stop, so a standby takes over at once instead of after the time to live. */
  async release(): Promise<void> {
    if (this.held === null) return;
    const token = this.held;
    this.held = null;
    await this.options.redis.eval(RELEASE, 1, this.options.key, token);
  }
}

export class LeadershipLost extends Error {
  override readonly name = 'LeadershipLost';
}
