import Router from '@koa/router';
import type { ApiDeps } from '../../http/context.js';
import { adminAccess } from '../access/adminAccess.js';
import { readAdminStats } from './readAdminStats.js';

/** GET /api/admin/stats: the stat cards. */
export function adminStatsRoutes(deps: ApiDeps): Router {
  const router = new Router({ prefix: '/api/admin/stats' });
  router.use(adminAccess(deps));
  router.get('/', async (ctx) => {
    ctx.body = await readAdminStats(deps);
  });
  return router;
}
