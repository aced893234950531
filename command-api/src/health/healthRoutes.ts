import Router from '@koa/router';
import type { ApiDeps } from '../http/context.js';

async function answers(check: () => Promise<unknown>, timeoutMs = 1500): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([check(), new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('timeout')), timeoutMs)))]);
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

export function healthRoutes(deps: ApiDeps): Router {
  const router = new Router({ prefix: '/api' });

  /** Liveness: the process serves HTTP. */
  router.get('/health', (ctx) => {
    ctx.body = { status: 'ok' };
  });

  /** Readiness: the event store and Redis answer; how many events the read models still have to apply. */
  router.get('/ready', async (ctx) => {
    const [eventStore, redis] = await Promise.all([answers(() => deps.store.ping()), answers(() => deps.redis.ping())]);
    let projectionLag: number | null = null;
    if (eventStore && redis) {
      const [head, checkpoint] = await Promise.all([deps.store.headPosition(), deps.redis.get(deps.readModels.keys.checkpoint)]);
      projectionLag = Math.max(0, head - Number(checkpoint ?? 0));
    }
    const ready = eventStore && redis;
    ctx.status = ready ? 200 : 503;
    ctx.body = {
      status: ready ? 'ready' : 'unavailable',
      eventStore: eventStore ? 'ok' : 'unavailable',
      eventStoreKind: deps.store.kind,
      redis: redis ? 'ok' : 'unavailable',
      projectionLag,
    };
  });

  return router;
}
