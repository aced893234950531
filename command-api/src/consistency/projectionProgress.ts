import type { Redis } from 'ioredis';
import type { ReadModelKeys } from '@honeylend/contracts';

/**
 * Read-your-writes: a command's answer waits until the projections have applied the position it
 * appended, so the state it returns — and any GET right after — already shows the write.
 * The projections announce each checkpoint on a pub/sub channel; a slow poll covers announcements
 * missed while the subscriber connection was reconnecting.
 */
export class ProjectionProgress {
  private known = 0;
  private readonly waiters = new Set<{ position: number; resolve: (reached: boolean) => void }>();
  private poller: NodeJS.Timeout | null = null;
  private started: Promise<void> | null = null;

  constructor(
    private readonly redis: Redis,
    /** A connection used only for SUBSCRIBE (a subscribed connection cannot run other commands). */
    private readonly subscriber: Redis,
    private readonly keys: ReadModelKeys,
  ) {}

  start(): Promise<void> {
    this.started ??= (async () => {
      this.subscriber.on('message', (channel: string, message: string) => {
        if (channel === this.keys.progressChannel) this.advance(Number(message));
      });
      await this.subscriber.subscribe(this.keys.progressChannel);
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

  /** Resolves true once the projections reach `position`, false after `timeoutMs`. */
  async waitFor(position: number, timeoutMs = 2000): Promise<boolean> {
    await this.start();
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
