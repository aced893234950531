import { compareStreamIds } from './changeFeed.js';

/**
 * The ids of the last `size` change-feed entries this node has delivered, so that whether a
 * resuming socket is further behind than the replay window is answered from memory (a few hundred
 * kilobytes of ids), without reading the feed. Until `size` entries are known, the whole feed is
 * inside the window.
 */
export class ReplayWindow {
  private readonly ids: string[];
  private next = 0;
  private full = false;

  constructor(readonly size: number) {
    this.ids = new Array<string>(size);
  }

  /** Records the next entry, in feed order. */
  add(id: string): void {
    this.ids[this.next] = id;
    this.next = (this.next + 1) % this.size;
    if (this.next === 0) this.full = true;
  }

  /** The oldest entry still inside the window, or null while every entry the feed holds is. */
  oldest(): string | null {
    return this.full ? this.ids[this.next] : null;
  }

  /** Whether more than `size` entries lie after `since` (it is older than the oldest entry in the window). */
  isBeyond(since: string): boolean {
    const oldest = this.oldest();
    return oldest !== null && compareStreamIds(since, oldest) < 0;
  }
}
