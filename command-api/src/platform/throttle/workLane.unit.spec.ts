import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors/apiError.js';
import { WorkLane } from './workLane.js';

describe('a lane for heavy work', () => {
  it('runs at most its number at once, queues a bounded line, and refuses the rest at once with 503 and Retry-After', async () => {
    const lane = new WorkLane(2, 3);
    let running = 0;
    let most = 0;
    const releases: (() => void)[] = [];
    const work = () =>
      lane.run(async () => {
        running += 1;
        most = Math.max(most, running);
        await new Promise<void>((resolve) => releases.push(resolve));
        running -= 1;
        return 'done';
      });
    const accepted = Array.from({ length: 5 }, work);
    const refused = await work().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 503, code: 'BUSY', details: { retryAfterSeconds: 2 } });
    while (releases.length > 0 || running > 0) {
      await new Promise((resolve) => setTimeout(resolve, 1));
      releases.shift()?.();
    }
    expect(await Promise.all(accepted)).toEqual(['done', 'done', 'done', 'done', 'done']);
    expect(most).toBe(2);
    expect(lane.inUse).toBe(0);
  });

  it('frees its slot when the work fails', async () => {
    const lane = new WorkLane(1, 0);
    await expect(lane.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await lane.run(async () => 'next')).toBe('next');
  });
});
