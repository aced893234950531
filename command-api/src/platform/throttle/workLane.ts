import { ApiError } from '../errors/apiError.js';

/**
 * A bound on work that takes a thread for a while (argon2 hashing of a new password: ~50 ms and
 * 19 MiB each): at most `running` at once, at most `waiting` in line, anything beyond refused at
 * once with 503 and Retry-After. Node runs argon2 on libuv's pool of 4 threads, shared with login
 * checks: a registration flood fills this lane, never the pool, so sign-ins keep their threads.
 */
export class WorkLane {
  private active = 0;
  private readonly queue: (() => void)[] = [];

  constructor(
    private readonly running: number,
    private readonly waiting: number,
  ) {}

  get inUse(): number {
    return this.active;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active >= this.running) {
      if (this.queue.length >= this.waiting) {
        throw new ApiError(503, 'BUSY', 'We are receiving many sign-ups right now. Please try again in a few seconds.', { retryAfterSeconds: 2 });
      }
      await new Promise<void>((resolve) => this.queue.push(resolve));
    } else {
      this.active += 1;
    }
    try {
      return await work();
    } finally {
      const next = this.queue.shift();
      // The slot passes straight to the next in line; only when nobody waits is it given back.
      if (next) next();
      else this.active -= 1;
    }
  }
}
