import type { Redis } from 'ioredis';
import type { ReadModelKeys } from '@honeylend/contracts';

/** How often a waiting command looks again which event store the read models belong to. */
const STORE_RECHECK_MS = 1000;

/**
 * Read-your-writes: a command's answer waits until the projections have applied the position it
 * appended, so the state it returns — and any GET right after — already shows the write.
 * The projections announce each checkpoint on a pub/sub channel; a slow poll covers announcements
 * missed while the subscriber connection was reconnecting.
 *
 * Checkpoints are positions of one event store. Read models built from another store (the
 * projections then stop until `lending replay`) reach no position of this one, whatever their
 * numbers: waiting commands are answered at once as not yet shown, rather than from stale data.
 */
export class ProjectionProgress {
  private known = 0;
  private readonly waiters = new Set<{ position: number; resolve: (reached: boolean) => void }>();
  private poller: NodeJS.Timeout | null = null;
  private started: Promise<void> | null = null;
  /** The store the read models record, as last read. */
  private recorded: { identity: string | null; readAt: number } | null = null;
  private ownIdentity: Promise<string> | null = null;

  constructor(
    private readonly redis: Redis,
    /** A connection used only for SUBSCRIBE (a subscribed connection cannot run other commands). */
    private readonly subscriber: Redis,
    private readonly keys: ReadModelKeys,
    /** This API's event store, as the read models record it (storeIdentityOf); without it, any read models count. */
    private readonly storeIdentity?: () => Promise<string>,
  ) {}

  start(): Promise<void> {
    this.started ??= (async () => {
      // The channel of the database the checkpoint is read from: another system's database on this server is not ours.
      const progressChannel = this.keys.progressChannel(this.redis.options.db ?? 0);
      this.subscriber.on('message', (channel: string, message: string) => {
        if (channel === progressChannel) this.advance(Number(message));
      });
      await this.subscriber.subscribe(progressChannel);
      await this.refresh();
    })();
    return this.started;
  }

  private async refresh(): Promise<void> {
    this.advance(Number((await this.redis.get(this.keys.checkpoint)) ?? 0));
  }

  private advance(position: number): void {
    if (!(position > this.known)) return;
    this.known = position;
    for (const waiter of this.waiters) {
      if (waiter.position <= position) {
        this.waiters.delete(waiter);
        waiter.resolve(true);
      }
    }
    this.stopPollingIfIdle();
  }

  /**
   * Whether the read models belong to another event store, read at most once a second. When other
   * read models are swapped in (a replay), their checkpoints are counted afresh.
   */
  private async ofAnotherStore(): Promise<boolean> {
    if (!this.storeIdentity) return false;
    if (!this.recorded || Date.now() - this.recorded.readAt >= STORE_RECHECK_MS) {
      const identity = await this.redis.get(this.keys.storeIdentity);
      if (this.recorded && identity !== this.recorded.identity) this.known = 0;
      this.recorded = { identity, readAt: Date.now() };
    }
    if (this.recorded.identity === null) return false;
    this.ownIdentity ??= this.storeIdentity().catch((error: unknown) => {
      this.ownIdentity = null;
      throw error;
    });
    // A store that cannot say who it is right now does not hold the answer back.
    const own = await this.ownIdentity.catch(() => null);
    return own !== null && own !== this.recorded.identity;
  }

  /** Resolves true once the projections reach `position`, false after `timeoutMs` (at once for read models of another store). */
  async waitFor(position: number, timeoutMs = 2000): Promise<boolean> {
    await this.start();
    if (await this.ofAnotherStore()) return false;
    if (position <= this.known) return true;
    await this.refresh();
    if (position <= this.known) return true;
    return new Promise<boolean>((resolve) => {
      const waiter = {
        position,
        resolve: (reached: boolean) => {
          clearTimeout(timer);
          resolve(reached);
        },
      };
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        this.stopPollingIfIdle();
        resolve(false);
      }, timeoutMs);
      this.waiters.add(waiter);
      this.poller ??= setInterval(() => void this.refresh().catch(() => undefined), 200);
    });
  }

  private stopPollingIfIdle(): void {
    if (this.waiters.size === 0 && this.poller) {
      clearInterval(this.poller);
      this.poller = null;
    }
  }

  get checkpoint(): number {
    return this.known;
  }

  async stop(): Promise<void> {
    for (const waiter of this.waiters) waiter.resolve(false);
    this.waiters.clear();
    this.stopPollingIfIdle();
    this.subscriber.disconnect();
  }
}
