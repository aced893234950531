import Router from '@koa/router';
import type { ApiDeps } from '../../platform/context/context.js';
import { allowListed } from '../../platform/allowList/allowList.js';

/**
 * The IP allow-list guards the admin sign-in too (spec §6): a refused address never learns whether
 * a password was right, and the login throttle counts the real client behind a trusted proxy.
 * Mounted before the auth routes; an allowed request goes on to them.
 */
export function adminLoginAccess(deps: ApiDeps): Router {
  const router = new Router();
  router.post('/api/auth/admin-login', allowListed(deps));
  return router;
}
