/**
 * What a live subscription sleeps on between reads. A wake that arrives while the subscriber is
 * still reading is remembered, so an append committed between "read returned nothing new" and
 * "go to sleep" is never slept through.
 */
export class WakeLatch {
  private pending = false;
  private release: (() => void) | null = null;

  wake(): void {
    this.pending = true;
    this.release?.();
  }

  /** Resolves at the next wake (at once if one is pending) or after `timeoutMs`, whichever is first. */
  async sleep(timeoutMs: number): Promise<void> {
    if (!this.pending) {
      await new Promise<void>((resolve) => {
        const done = (): void => {
          clearTimeout(timer);
          this.release = null;
          resolve();
        };
        const timer = setTimeout(done, timeoutMs);
        this.release = done;
      });
    }
    this.pending = false;
  }
}
