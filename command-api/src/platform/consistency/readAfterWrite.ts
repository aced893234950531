import type { Context } from 'koa';
import type { ProjectionProgress } from './projectionProgress.js';

/**
 * Waits (at most 2 s) until the read models include `position`, then loads the answer from them.
 * Should the projections lag further, the write still stands: the answer says so with 202 and
 * `X-Read-Model-Lag: pending` rather than pretending stale data is fresh.
 */
export async function readAfterWrite<T>(ctx: Context, progress: ProjectionProgress, position: number | null, load: () => Promise<T>): Promise<T> {
  if (position !== null) {
    const reached = await progress.waitFor(position);
    if (!reached) {
      ctx.status = 202;
      ctx.set('X-Read-Model-Lag', 'pending');
    }
  }
  return load();
}
